# Sourced by the scripts that build or test scry (the Makefile does the
# same): build SQLite from C with FTS5 (internal/sqlitedb), without its
# extension loading. A build without these tags still works, on SQLite
# translated to Go, about half as fast on full-text queries.
case " ${GOFLAGS:-} " in
  *sqlite_fts5*) ;;
  *) export GOFLAGS="${GOFLAGS:+$GOFLAGS }-tags=sqlite_fts5,sqlite_omit_load_extension" ;;
esac
