package engine

// MetadataOf lets tests ask about any chunk, including the anonymous ones
// no symbol path names.
var MetadataOf = (*Engine).metadataOf
