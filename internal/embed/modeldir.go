package embed

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/scry-dev/scry/internal/embed/tokenizer"
)

// ModelDirConfig is the optional scry.json of a local model directory. Every
// field may be left out: the sentence-transformers files beside the model
// (1_Pooling/config.json, config_sentence_transformers.json,
// sentence_bert_config.json) and the Hugging Face config.json and
// tokenizer_config.json fill in what they say, and defaults the rest.
type ModelDirConfig struct {
	// Model is the ONNX file, relative to the directory (default
	// model.onnx, else onnx/model.onnx).
	Model string `json:"model"`
	// Name names the model in its ModelID (default: the directory's name).
	Name string `json:"name"`
	// Pooling turns token vectors into one: "mean" (default), "cls",
	// "last" (decoder-style embedders), or "none" when the model's output
	// is already pooled.
	Pooling string `json:"pooling"`
	// Output is the output tensor to read (default: sentence_embedding,
	// else last_hidden_state, else token_embeddings, else the first).
	Output string `json:"output"`
	// MaxLength is the longest input in tokens, special tokens included.
	MaxLength int `json:"maxLength"`
	// QueryPrefix and DocumentPrefix are prepended to queries and
	// documents, for models trained with instructions ("search_query: ").
	QueryPrefix    string `json:"queryPrefix"`
	DocumentPrefix string `json:"documentPrefix"`
	// Activation maps a cross-encoder's logit to [0,1]: "sigmoid"
	// (default), "softmax" (two-class heads: probability of the last
	// class) or "none" (the model already outputs probabilities).
	Activation string `json:"activation"`
}

// ModelDir is a resolved local model directory.
type ModelDir struct {
	Dir         string
	ModelPath   string
	Config      ModelDirConfig
	Tokenizer   *tokenizer.Tokenizer
	Fingerprint string // identifies weights, tokenizer and settings
}

// DefaultMaxLength applies when nothing in the directory says otherwise.
const DefaultMaxLength = 512

// LoadModelDir reads a model directory: the ONNX file, tokenizer.json and
// the settings files. maxTokens > 0 overrides the maximum input length.
func LoadModelDir(dir string, maxTokens int) (*ModelDir, error) {
	if dir == "" {
		return nil, errors.New("no model directory configured (--embed-dir / SCRY_EMBED_DIR)")
	}
	md := &ModelDir{Dir: dir}
	if err := readJSON(filepath.Join(dir, "scry.json"), &md.Config); err != nil {
		return nil, err
	}
	c := &md.Config
	if c.Model != "" {
		md.ModelPath = filepath.Join(dir, filepath.FromSlash(c.Model))
	} else {
		for _, p := range []string{"model.onnx", filepath.Join("onnx", "model.onnx")} {
			if _, err := os.Stat(filepath.Join(dir, p)); err == nil {
				md.ModelPath = filepath.Join(dir, p)
				break
			}
		}
	}
	if md.ModelPath == "" {
		return nil, fmt.Errorf("model directory %s has no model.onnx (nor onnx/model.onnx)", dir)
	}
	if _, err := os.Stat(md.ModelPath); err != nil {
		return nil, fmt.Errorf("model directory %s: %w", dir, err)
	}
	if c.Name == "" {
		abs, _ := filepath.Abs(dir)
		c.Name = filepath.Base(abs)
	}

	// sentence-transformers' files.
	var pool struct {
		CLS  bool `json:"pooling_mode_cls_token"`
		Mean bool `json:"pooling_mode_mean_tokens"`
		Last bool `json:"pooling_mode_lasttoken"`
	}
	if err := readJSON(filepath.Join(dir, "1_Pooling", "config.json"), &pool); err != nil {
		return nil, err
	}
	if c.Pooling == "" {
		switch {
		case pool.CLS:
			c.Pooling = "cls"
		case pool.Last:
			c.Pooling = "last"
		default:
			c.Pooling = "mean"
		}
	}
	switch c.Pooling {
	case "mean", "cls", "last", "none":
	default:
		return nil, fmt.Errorf("model directory %s: pooling %q: want mean, cls, last or none", dir, c.Pooling)
	}
	var st struct {
		Prompts map[string]string `json:"prompts"`
	}
	if err := readJSON(filepath.Join(dir, "config_sentence_transformers.json"), &st); err != nil {
		return nil, err
	}
	if c.QueryPrefix == "" {
		c.QueryPrefix = st.Prompts["query"]
	}
	if c.DocumentPrefix == "" {
		c.DocumentPrefix = st.Prompts["document"]
		if c.DocumentPrefix == "" {
			c.DocumentPrefix = st.Prompts["passage"]
		}
	}
	maxLen := maxTokens
	if maxLen <= 0 {
		maxLen = c.MaxLength
	}
	if maxLen <= 0 {
		var sb struct {
			MaxSeqLength int `json:"max_seq_length"`
		}
		if err := readJSON(filepath.Join(dir, "sentence_bert_config.json"), &sb); err != nil {
			return nil, err
		}
		maxLen = sb.MaxSeqLength
	}
	if maxLen <= 0 {
		var hf struct {
			MaxPos int `json:"max_position_embeddings"`
		}
		var tc struct {
			ModelMaxLength float64 `json:"model_max_length"`
		}
		if err := readJSON(filepath.Join(dir, "config.json"), &hf); err != nil {
			return nil, err
		}
		if err := readJSON(filepath.Join(dir, "tokenizer_config.json"), &tc); err != nil {
			return nil, err
		}
		maxLen = hf.MaxPos
		// model_max_length is often a huge "unset" sentinel.
		if tc.ModelMaxLength > 0 && tc.ModelMaxLength < 1e6 && (maxLen == 0 || int(tc.ModelMaxLength) < maxLen) {
			maxLen = int(tc.ModelMaxLength)
		}
	}
	if maxLen <= 0 {
		maxLen = DefaultMaxLength
	}
	c.MaxLength = maxLen

	tokPath := filepath.Join(dir, "tokenizer.json")
	tok, err := tokenizer.Load(tokPath, maxLen)
	if err != nil {
		return nil, fmt.Errorf("model directory %s: %w", dir, err)
	}
	md.Tokenizer = tok

	fp, err := fingerprint(md.ModelPath, tokPath, *c)
	if err != nil {
		return nil, fmt.Errorf("model directory %s: %w", dir, err)
	}
	md.Fingerprint = fp
	return md, nil
}

// readJSON decodes path into v; a missing file leaves v unchanged.
func readJSON(path string, v any) error {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// fingerprint identifies a model without hashing hundreds of megabytes on
// every start: the file's size and its first and last MiB, the whole
// tokenizer.json, and the settings that change the vectors.
func fingerprint(model, tok string, c ModelDirConfig) (string, error) {
	h := sha256.New()
	f, err := os.Open(model)
	if err != nil {
		return "", err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return "", err
	}
	fmt.Fprintf(h, "%d\n", st.Size())
	const part = 1 << 20
	if _, err := io.CopyN(h, f, part); err != nil && !errors.Is(err, io.EOF) {
		return "", err
	}
	if st.Size() > 2*part {
		if _, err := f.Seek(-part, io.SeekEnd); err != nil {
			return "", err
		}
		if _, err := io.Copy(h, f); err != nil {
			return "", err
		}
	}
	tf, err := os.ReadFile(tok)
	if err != nil {
		return "", err
	}
	h.Write(tf)
	fmt.Fprintf(h, "\n%s\n%s\n%d\n%q\n%q\n", c.Pooling, c.Output, c.MaxLength, c.QueryPrefix, c.DocumentPrefix)
	return hex.EncodeToString(h.Sum(nil))[:12], nil
}

// safeName keeps a model name readable inside an id.
func safeName(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == '@' || r == '#' || r < ' ' {
			return '_'
		}
		return r
	}, s)
}
