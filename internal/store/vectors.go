package store

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/scry-dev/scry/internal/chunkindex"
)

// Vector is one chunk's embedding under some model.
type Vector struct {
	ChunkID string
	Data    []float32
}

// PutVectors stores embeddings of one model in one transaction, replacing
// any previous vector of the same chunk and model. A vector for a chunk that
// no longer exists (replaced while it was being embedded) fails the whole
// batch with a foreign-key error rather than leaving an orphan.
func (s *Store) PutVectors(model string, vecs []Vector) error {
	if len(vecs) == 0 {
		return nil
	}
	err := s.write(func(ctx context.Context, tx *sql.Tx) error {
		st, err := tx.PrepareContext(ctx, `INSERT OR REPLACE INTO vectors(chunk_id, model, dim, data) VALUES (?, ?, ?, ?)`)
		if err != nil {
			return err
		}
		defer st.Close()
		for _, v := range vecs {
			if _, err := st.ExecContext(ctx, v.ChunkID, model, len(v.Data), encodeVector(v.Data)); err != nil {
				return fmt.Errorf("chunk %s: %w", v.ChunkID, err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("store: put vectors (%s): %w", model, err)
	}
	return nil
}

// PutVector stores one embedding.
func (s *Store) PutVector(chunkID, model string, data []float32) error {
	return s.PutVectors(model, []Vector{{ChunkID: chunkID, Data: data}})
}

// GetVector returns a chunk's embedding under model; the error wraps
// chunkindex.ErrNotFound when there is none.
func (s *Store) GetVector(chunkID, model string) ([]float32, error) {
	var dim int
	var blob []byte
	err := s.db.QueryRowContext(context.Background(),
		`SELECT dim, data FROM vectors WHERE chunk_id = ? AND model = ?`, chunkID, model).Scan(&dim, &blob)
	if errors.Is(err, sql.ErrNoRows) {
		err = chunkindex.ErrNotFound
	}
	if err == nil {
		var v []float32
		if v, err = decodeVector(blob, dim); err == nil {
			return v, nil
		}
	}
	return nil, fmt.Errorf("store: vector %s (%s): %w", chunkID, model, err)
}

// VectorsByModel returns every embedding stored under model, in the order
// they were stored, to be loaded into memory for a flat scan. Reading in
// table order, not by chunk id through the unique index, saves a random
// row lookup per vector: about a third of the load time at 140k vectors.
func (s *Store) VectorsByModel(model string) ([]Vector, error) {
	rows, err := s.db.QueryContext(context.Background(),
		`SELECT chunk_id, dim, data FROM vectors WHERE model = ?`, model)
	if err != nil {
		return nil, fmt.Errorf("store: vectors (%s): %w", model, err)
	}
	out, err := collectRows(rows, func(r *sql.Rows) (Vector, error) {
		var v Vector
		var dim int
		var blob []byte
		if err := r.Scan(&v.ChunkID, &dim, &blob); err != nil {
			return v, err
		}
		var err error
		if v.Data, err = decodeVector(blob, dim); err != nil {
			return v, fmt.Errorf("chunk %s: %w", v.ChunkID, err)
		}
		return v, nil
	})
	if err != nil {
		return nil, fmt.Errorf("store: vectors (%s): %w", model, err)
	}
	return out, nil
}

// Vectors are stored quantised to int8 with one scale per vector: a
// little-endian float32 scale, then dim int8 values (value = scale ×
// int8), a quarter of float32's size. The scale is the largest magnitude
// ÷ 127, so a component is off by at most scale/2: for a unit vector of 256
// dimensions that moves a cosine by well under 0.01, far less than the
// gaps that order neighbours (TestVectorQuantisation). The file reads the
// same on any host.
func encodeVector(v []float32) []byte {
	b := make([]byte, 4+len(v))
	var top float32
	for _, f := range v {
		top = max(top, float32(math.Abs(float64(f))))
	}
	scale := top / 127
	binary.LittleEndian.PutUint32(b, math.Float32bits(scale))
	if scale == 0 {
		return b
	}
	for i, f := range v {
		b[4+i] = byte(int8(math.Round(float64(f / scale))))
	}
	return b
}

func decodeVector(b []byte, dim int) ([]float32, error) {
	if len(b) != 4+dim {
		return nil, fmt.Errorf("vector of %d bytes for dimension %d", len(b), dim)
	}
	scale := math.Float32frombits(binary.LittleEndian.Uint32(b))
	v := make([]float32, dim)
	for i := range v {
		v[i] = scale * float32(int8(b[4+i]))
	}
	return v, nil
}

// quantised returns v as it reads back from the store.
func quantised(v []float32) []float32 {
	q, err := decodeVector(encodeVector(v), len(v))
	if err != nil {
		panic(err) // encodeVector always writes 4+len(v) bytes
	}
	return q
}
