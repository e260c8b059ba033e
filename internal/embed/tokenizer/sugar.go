package tokenizer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"unicode"

	sugar "github.com/sugarme/tokenizer"
	"github.com/sugarme/tokenizer/pretrained"
	"golang.org/x/text/unicode/norm"
)

// sugarModel runs WordPiece (and WordLevel, Unigram) tokenizers through
// github.com/sugarme/tokenizer, which matched the reference tokenizer on
// real code for BERT vocabularies. Special tokens and truncation are left
// to this package, so sugarme only splits text into ids.
type sugarModel struct {
	mu    sync.Mutex // sugarme's tokenizer is not documented as safe for concurrent use
	tk    *sugar.Tokenizer
	vocab map[string]int
	// nfd decomposes text before sugarme sees it: the reference strips
	// accents as NFD then "drop combining marks", sugarme only drops the
	// marks, which leaves precomposed letters (é) intact.
	nfd bool
	// spaces maps every Unicode space separator (NBSP, thin space…) to a
	// plain space, as the reference's clean_text does; sugarme keeps them
	// inside words, turning "x\u00a0" into [UNK].
	spaces bool
}

func newSugar(data []byte) (s *sugarModel, err error) {
	defer guard("load", &err)
	data, nfd, spaces, err := fixBertNormalizer(data)
	if err != nil {
		return nil, err
	}
	tk, err := pretrained.FromReader(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("load: %w", err)
	}
	tk.WithTruncation(nil)
	tk.WithPadding(nil)
	return &sugarModel{tk: tk, vocab: tk.GetVocab(true), nfd: nfd, spaces: spaces}, nil
}

func (s *sugarModel) encode(text string) (ids []int64, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer guard("encode", &err)
	if s.spaces {
		text = strings.Map(func(r rune) rune {
			if unicode.Is(unicode.Zs, r) {
				return ' '
			}
			return r
		}, text)
	}
	if s.nfd {
		text = norm.NFD.String(text)
	}
	enc, err := s.tk.EncodeSingle(text, false)
	if err != nil {
		return nil, fmt.Errorf("encode: %w", err)
	}
	raw := enc.GetIds()
	ids = make([]int64, len(raw))
	for i, id := range raw {
		ids[i] = int64(id)
	}
	return ids, nil
}

// fixBertNormalizer applies the reference's rule that a BertNormalizer
// with "strip_accents": null strips accents exactly when it lowercases.
// bert-base-uncased's tokenizer.json says null, and sugarme reads null as
// false, which would turn "café" into [UNK] instead of "cafe".
// It also reports whether accents are stripped and text cleaned, so that
// encode can prepare text the way the reference would.
func fixBertNormalizer(data []byte) (out []byte, strips, spaces bool, err error) {
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, false, false, fmt.Errorf("load: %w", err)
	}
	changed := false
	var fix func(n any)
	fix = func(n any) {
		m, ok := n.(map[string]any)
		if !ok {
			return
		}
		if m["type"] == "BertNormalizer" {
			if sa, present := m["strip_accents"]; !present || sa == nil {
				lc, _ := m["lowercase"].(bool)
				m["strip_accents"] = lc
				changed = true
			}
			if sa, _ := m["strip_accents"].(bool); sa {
				strips = true
			}
			if ct, _ := m["clean_text"].(bool); ct {
				spaces = true
			}
		}
		if list, ok := m["normalizers"].([]any); ok {
			for _, x := range list {
				fix(x)
			}
		}
	}
	fix(doc["normalizer"])
	if !changed {
		return data, strips, spaces, nil
	}
	out, err = json.Marshal(doc)
	return out, strips, spaces, err
}
