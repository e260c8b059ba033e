import { Injectable } from '@angular/core';
import { HttpClient, HttpParams } from '@angular/common/http';
import { Observable, of, throwError } from 'rxjs';
import { catchError, map, retry } from 'rxjs/operators';
import { Order, OrderStatus, OrderSummary } from './order.model';
import { environment } from '../environments/environment';

const PAGE_SIZE = 50;
const MAX_RETRIES = 3;
const CANCELLABLE: OrderStatus[] = ['pending', 'confirmed'];

@Injectable({ providedIn: 'root' })
export class OrderService {
  private readonly baseUrl = `${environment.apiUrl}/orders`;
  private cache = new Map<string, Order>();
  private lastPage = 0;

  constructor(private http: HttpClient) {}

  list(page = 0): Observable<Order[]> {
    const params = new HttpParams().set('page', page).set('size', PAGE_SIZE);
    this.lastPage = page;
    return this.http.get<Order[]>(this.baseUrl, { params }).pipe(retry(MAX_RETRIES));
  }

  get(id: string): Observable<Order> {
    const cached = this.cache.get(id);
    if (cached) {
      return of(cached);
    }
    return this.http.get<Order>(`${this.baseUrl}/${id}`).pipe(
      retry(MAX_RETRIES),
      map((order) => {
        this.cache.set(id, order);
        return order;
      }),
    );
  }

  cancel(order: Order): Observable<Order> {
    if (!CANCELLABLE.includes(order.status)) {
      return throwError(() => new Error(`cannot cancel ${order.status}`));
    }
    return this.http.post<Order>(`${this.baseUrl}/${order.id}/cancel`, {});
  }

  summary(): Observable<OrderSummary> {
    return this.http.get<OrderSummary>(`${this.baseUrl}/summary`);
  }

  refresh(): void {
    this.cache.clear();
  }

  nextPage(): Observable<Order[]> {
    return this.list(this.lastPage + 1);
  }

  isCached(id: string): boolean {
    return this.cache.has(id);
  }

  search(term: string): Observable<Order[]> {
    return this.http
      .get<Order[]>(this.baseUrl, { params: { q: term } })
      .pipe(catchError(() => of([])));
  }

  count(): number {
    return this.cache.size;
  }

  pageSize(): number {
    return PAGE_SIZE;
  }
}
