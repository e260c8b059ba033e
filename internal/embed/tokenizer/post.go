package tokenizer

import (
	"encoding/json"
	"fmt"
)

// piece is one element of a template: a special token's ids or sequence A
// or B, with the token type id its tokens get.
type piece struct {
	special []int64 // nil for a sequence
	seq     byte    // 'A' or 'B'
	typeID  int64
}

// postProcessor adds special tokens around one or two sequences.
type postProcessor struct {
	single, pair []piece
}

func (p postProcessor) added(pair bool) int {
	n := 0
	tpl := p.single
	if pair {
		tpl = p.pair
	}
	for _, x := range tpl {
		n += len(x.special)
	}
	return n
}

func (p postProcessor) apply(a, b []int64, pair bool) Encoding {
	tpl := p.single
	if pair {
		tpl = p.pair
	}
	var e Encoding
	for _, x := range tpl {
		ids := x.special
		switch x.seq {
		case 'A':
			ids = a
		case 'B':
			ids = b
		}
		for _, id := range ids {
			e.IDs = append(e.IDs, id)
			e.TypeIDs = append(e.TypeIDs, x.typeID)
		}
	}
	return e
}

// plain adds nothing: sequence A, then B with type id 1.
var plain = postProcessor{
	single: []piece{{seq: 'A'}},
	pair:   []piece{{seq: 'A'}, {seq: 'B', typeID: 1}},
}

// parsePost reads the post_processor object: TemplateProcessing,
// BertProcessing, RobertaProcessing, ByteLevel (adds nothing) or a
// Sequence of them.
func parsePost(raw json.RawMessage, vocab map[string]int) (postProcessor, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return plain, nil
	}
	var head struct {
		Type       string            `json:"type"`
		Processors []json.RawMessage `json:"processors"`
		Sep        []any             `json:"sep"`
		Cls        []any             `json:"cls"`
		Single     []map[string]struct {
			ID     string `json:"id"`
			TypeID int64  `json:"type_id"`
		} `json:"single"`
		Pair []map[string]struct {
			ID     string `json:"id"`
			TypeID int64  `json:"type_id"`
		} `json:"pair"`
		SpecialTokens map[string]struct {
			IDs []int64 `json:"ids"`
		} `json:"special_tokens"`
	}
	if err := json.Unmarshal(raw, &head); err != nil {
		return plain, err
	}
	switch head.Type {
	case "ByteLevel":
		return plain, nil
	case "Sequence":
		out := plain
		for _, p := range head.Processors {
			pp, err := parsePost(p, vocab)
			if err != nil {
				return plain, err
			}
			if pp.added(false) > 0 || pp.added(true) > 0 {
				out = pp
			}
		}
		return out, nil
	case "BertProcessing", "RobertaProcessing":
		cls, err := postToken(head.Cls)
		if err != nil {
			return plain, fmt.Errorf("%s cls: %w", head.Type, err)
		}
		sep, err := postToken(head.Sep)
		if err != nil {
			return plain, fmt.Errorf("%s sep: %w", head.Type, err)
		}
		if head.Type == "BertProcessing" {
			return postProcessor{
				single: []piece{{special: cls}, {seq: 'A'}, {special: sep}},
				pair:   []piece{{special: cls}, {seq: 'A'}, {special: sep}, {seq: 'B', typeID: 1}, {special: sep, typeID: 1}},
			}, nil
		}
		// RoBERTa has no token types: everything is type 0.
		return postProcessor{
			single: []piece{{special: cls}, {seq: 'A'}, {special: sep}},
			pair:   []piece{{special: cls}, {seq: 'A'}, {special: sep}, {special: sep}, {seq: 'B'}, {special: sep}},
		}, nil
	case "TemplateProcessing":
		conv := func(tpl []map[string]struct {
			ID     string `json:"id"`
			TypeID int64  `json:"type_id"`
		}) ([]piece, error) {
			var out []piece
			for _, el := range tpl {
				for kind, v := range el {
					switch kind {
					case "Sequence":
						if v.ID != "A" && v.ID != "B" {
							return nil, fmt.Errorf("template sequence %q", v.ID)
						}
						out = append(out, piece{seq: v.ID[0], typeID: v.TypeID})
					case "SpecialToken":
						st, ok := head.SpecialTokens[v.ID]
						if !ok {
							id, ok := vocab[v.ID]
							if !ok {
								return nil, fmt.Errorf("template token %q is not defined", v.ID)
							}
							st.IDs = []int64{int64(id)}
						}
						out = append(out, piece{special: st.IDs, typeID: v.TypeID})
					default:
						return nil, fmt.Errorf("template element %q", kind)
					}
				}
			}
			return out, nil
		}
		single, err := conv(head.Single)
		if err != nil {
			return plain, err
		}
		pair, err := conv(head.Pair)
		if err != nil {
			return plain, err
		}
		if len(pair) == 0 {
			pair = append(append([]piece{}, single...), piece{seq: 'B', typeID: 1})
		}
		return postProcessor{single: single, pair: pair}, nil
	}
	return plain, fmt.Errorf("unsupported post-processor %q", head.Type)
}

// postToken reads ["[CLS]", 101].
func postToken(v []any) ([]int64, error) {
	if len(v) != 2 {
		return nil, fmt.Errorf("want [token, id], got %v", v)
	}
	id, ok := v[1].(float64)
	if !ok {
		return nil, fmt.Errorf("want [token, id], got %v", v)
	}
	return []int64{int64(id)}, nil
}
