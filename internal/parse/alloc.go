package parse

/*
#include <stdlib.h>
void ts_set_allocator(void *(*)(size_t), void *(*)(size_t, size_t), void *(*)(void *, size_t), void (*)(void *));
static void scry_use_libc_allocator(void) { ts_set_allocator(malloc, calloc, realloc, free); }
*/
import "C"

// The Go binding routes every tree-sitter allocation through a Go callback
// (a cgo round trip per malloc/free); on a 9 MB file that is a third of the
// parse time. tree-sitter's own default is libc, which is what we want.
func init() { C.scry_use_libc_allocator() }
