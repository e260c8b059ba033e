package embed

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/scry-dev/scry/internal/sqlitedb"
)

// CacheFileName is the cache's file, kept beside the index.
const CacheFileName = "embed-cache.db"

// Cache maps (model id, SHA-256 of a document's text) to its vector, so
// that re-indexing never embeds unchanged text again: a file edit replaces
// all of its chunks (and their vectors) in the index, but most of them come
// back with the same text. It is a separate SQLite file rather than a table
// of the index because the index is dropped and rebuilt whenever its
// schema version changes, and the vectors — minutes or dollars of work —
// should survive that.
type Cache struct {
	db   *sql.DB
	path string
}

// CachePath is the cache file for an index file.
func CachePath(indexPath string) string {
	return filepath.Join(filepath.Dir(indexPath), CacheFileName)
}

// OpenCache opens or creates the cache at path.
func OpenCache(path string) (*Cache, error) {
	// Private, as the index beside it: the cache keys and vectors come
	// from the workspace's source.
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("embed cache %s: %w", path, err)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("embed cache %s: %w", path, err)
	}
	db, err := sqlitedb.Open(abs, sqlitedb.Options{BusyTimeoutMS: 5000, WAL: true, SynchronousNormal: true, Immediate: true})
	if err != nil {
		return nil, fmt.Errorf("embed cache %s: %w", path, err)
	}
	if _, err := db.Exec(`CREATE TABLE IF NOT EXISTS embed_cache (
		model TEXT NOT NULL,
		key   TEXT NOT NULL,
		dim   INTEGER NOT NULL,
		data  BLOB NOT NULL,
		used  INTEGER NOT NULL,
		PRIMARY KEY (model, key)
	) WITHOUT ROWID`); err != nil {
		db.Close()
		return nil, fmt.Errorf("embed cache %s: %w", path, err)
	}
	if err := sqlitedb.MakePrivate(abs); err != nil {
		db.Close()
		return nil, fmt.Errorf("embed cache %s: %w", path, err)
	}
	return &Cache{db: db, path: abs}, nil
}

// Close closes the cache.
func (c *Cache) Close() error {
	if err := c.db.Close(); err != nil {
		return fmt.Errorf("embed cache %s: %w", c.path, err)
	}
	return nil
}

// TextKey is the cache key of a text.
func TextKey(text string) string {
	h := sha256.Sum256([]byte(text))
	return hex.EncodeToString(h[:])
}

// Get returns the cached vectors of keys under model (missing keys are
// absent from the map).
func (c *Cache) Get(model string, keys []string) (map[string][]float32, error) {
	out := make(map[string][]float32, len(keys))
	const chunk = 500 // well under SQLite's bound-parameter limit
	for lo := 0; lo < len(keys); lo += chunk {
		part := keys[lo:min(lo+chunk, len(keys))]
		args := make([]any, 0, len(part)+1)
		args = append(args, model)
		for _, k := range part {
			args = append(args, k)
		}
		rows, err := c.db.QueryContext(context.Background(),
			`SELECT key, dim, data FROM embed_cache WHERE model = ? AND key IN (`+
				strings.TrimSuffix(strings.Repeat("?,", len(part)), ",")+`)`, args...)
		if err != nil {
			return nil, fmt.Errorf("embed cache: get: %w", err)
		}
		for rows.Next() {
			var k string
			var dim int
			var blob []byte
			if err := rows.Scan(&k, &dim, &blob); err != nil {
				rows.Close()
				return nil, fmt.Errorf("embed cache: get: %w", err)
			}
			if len(blob) != 4*dim {
				continue // a torn entry is a miss, not an error
			}
			v := make([]float32, dim)
			for i := range v {
				v[i] = math.Float32frombits(binary.LittleEndian.Uint32(blob[4*i:]))
			}
			out[k] = v
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, fmt.Errorf("embed cache: get: %w", err)
		}
	}
	return out, nil
}

// Put stores vectors under model in one transaction.
func (c *Cache) Put(model string, entries map[string][]float32) error {
	if len(entries) == 0 {
		return nil
	}
	now := time.Now().Unix()
	return c.execAll("put", `INSERT OR REPLACE INTO embed_cache(model, key, dim, data, used) VALUES (?, ?, ?, ?, ?)`, func(st *sql.Stmt) error {
		for k, v := range entries {
			blob := make([]byte, 4*len(v))
			for i, f := range v {
				binary.LittleEndian.PutUint32(blob[4*i:], math.Float32bits(f))
			}
			if _, err := st.Exec(model, k, len(v), blob, now); err != nil {
				return err
			}
		}
		return nil
	})
}

// Touch marks keys as used now, so that Prune keeps them.
func (c *Cache) Touch(model string, keys []string) error {
	if len(keys) == 0 {
		return nil
	}
	now := time.Now().Unix()
	return c.execAll("touch", `UPDATE embed_cache SET used = ? WHERE model = ? AND key = ?`, func(st *sql.Stmt) error {
		for _, k := range keys {
			if _, err := st.Exec(now, model, k); err != nil {
				return err
			}
		}
		return nil
	})
}

// execAll prepares query in a transaction and commits what run executes
// with it; what names the operation in errors.
func (c *Cache) execAll(what, query string, run func(st *sql.Stmt) error) error {
	tx, err := c.db.BeginTx(context.Background(), nil)
	if err != nil {
		return fmt.Errorf("embed cache: %s: %w", what, err)
	}
	defer tx.Rollback()
	st, err := tx.Prepare(query)
	if err != nil {
		return fmt.Errorf("embed cache: %s: %w", what, err)
	}
	defer st.Close()
	if err := run(st); err != nil {
		return fmt.Errorf("embed cache: %s: %w", what, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("embed cache: %s: %w", what, err)
	}
	return nil
}

// Prune deletes entries unused for longer than age, returning how many.
func (c *Cache) Prune(age time.Duration) (int64, error) {
	res, err := c.db.Exec(`DELETE FROM embed_cache WHERE used < ?`, time.Now().Add(-age).Unix())
	if err != nil {
		return 0, fmt.Errorf("embed cache: prune: %w", err)
	}
	n, _ := res.RowsAffected()
	return n, nil
}

// Count returns the number of entries under model ("" for all).
func (c *Cache) Count(model string) (int, error) {
	var n int
	var err error
	if model == "" {
		err = c.db.QueryRow(`SELECT count(*) FROM embed_cache`).Scan(&n)
	} else {
		err = c.db.QueryRow(`SELECT count(*) FROM embed_cache WHERE model = ?`, model).Scan(&n)
	}
	if err != nil {
		return 0, fmt.Errorf("embed cache: count: %w", err)
	}
	return n, nil
}

// Cached wraps an embedder with a cache for documents. Queries are not
// cached: they are short, rarely repeat, and their input type differs.
type Cached struct {
	Embedder
	cache *Cache
	// Hits and Misses count documents since creation (not synchronised:
	// read them after the embedding finishes).
	Hits, Misses int
}

// WithCache returns e with a document cache.
func WithCache(e Embedder, c *Cache) *Cached {
	return &Cached{Embedder: e, cache: c}
}

// EmbedDocuments implements Embedder: cached texts are read back, the rest
// embedded once each (duplicates within the call included) and stored.
func (c *Cached) EmbedDocuments(ctx context.Context, texts []string) ([][]float32, error) {
	model := c.ModelID()
	keys := make([]string, len(texts))
	for i, t := range texts {
		keys[i] = TextKey(t)
	}
	have, err := c.cache.Get(model, keys)
	if err != nil {
		return nil, err
	}
	var missTexts, missKeys, hitKeys []string
	seen := map[string]bool{}
	for i, k := range keys {
		if v, ok := have[k]; ok && len(v) == c.Dim() {
			hitKeys = append(hitKeys, k)
			continue
		}
		if !seen[k] {
			seen[k] = true
			missTexts = append(missTexts, texts[i])
			missKeys = append(missKeys, k)
		}
	}
	if len(missTexts) > 0 {
		vs, err := c.Embedder.EmbedDocuments(ctx, missTexts)
		if err != nil {
			return nil, err
		}
		fresh := make(map[string][]float32, len(vs))
		for i, v := range vs {
			fresh[missKeys[i]] = v
			have[missKeys[i]] = v
		}
		if err := c.cache.Put(model, fresh); err != nil {
			return nil, err
		}
	}
	if err := c.cache.Touch(model, hitKeys); err != nil {
		return nil, err
	}
	out := make([][]float32, len(texts))
	for i, k := range keys {
		out[i] = have[k]
	}
	c.Hits += len(texts) - len(missTexts)
	c.Misses += len(missTexts)
	return out, nil
}
