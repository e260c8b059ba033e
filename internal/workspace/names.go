package workspace

// SkipUnsafeName marks a file or directory whose name is textfmt.Unsafe
// (a control character, a line or paragraph separator, a bidirectional
// control, or bytes that are not UTF-8): printed in an answer, such a name
// could forge `file:line:` lines or instructions to the agent reading it,
// and no legitimate source file needs one, so it is never listed.
const SkipUnsafeName = "unsafe-name"
