export function hmac(key: string, data: string): string {
  return key + ':' + data;
}

export function digest(data: string): string {
  return hmac('digest', data);
}
