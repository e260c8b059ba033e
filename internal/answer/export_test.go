package answer

import (
	"github.com/scry-dev/scry/internal/chunk"
	"github.com/scry-dev/scry/internal/structure"
)

// MetadataOf lets tests ask about any chunk, including the anonymous ones
// no symbol path names.
var MetadataOf = Local.metadataOf

// Named is named, for the test of escaped names.
var Named = named

// Target is where the compiler is asked about c.
func Target(x Local, c chunk.Chunk) structure.Target {
	return compilerSource{root: x.Root.Dir()}.target(c)
}
