//go:build linux && cgo

package parse

/*
#include <malloc.h>

// glibc gives each thread that contends for the heap an arena of its own
// (up to eight per CPU) and keeps what is freed in each: tree-sitter's
// allocations, made from whichever thread a cgo call runs on, left the
// process growing by hundreds of megabytes over a few hundred questions
// while the Go heap stayed at 33 MB. Two arenas keep it near flat.
static void scry_limit_arenas(void) {
#ifdef M_ARENA_MAX
	mallopt(M_ARENA_MAX, 2);
#endif
}
*/
import "C"

func init() { C.scry_limit_arenas() }
