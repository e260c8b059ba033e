package tsls

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// MemoryEnv overrides the server's memory cap: bytes, or a number with a
// K, M or G suffix (binary units); "0" or "off" lifts the cap.
const MemoryEnv = "SCRY_TSGO_MEMORY"

// minMemoryLimit is the least DefaultMemoryLimit picks: the compiler on a
// large monorepo needs a few gigabytes, and a Go program's address space
// is larger than what it uses.
const minMemoryLimit = 4 << 30

// DefaultMemoryLimit is the server's address-space cap when Options leave
// it at 0: MemoryEnv if set, else half the machine's memory, at least
// 4 GiB. 0 means none (where the machine's memory is unknown, or the
// environment lifts it).
func DefaultMemoryLimit() (int64, error) {
	if v := strings.TrimSpace(os.Getenv(MemoryEnv)); v != "" {
		n, err := parseSize(v)
		if err != nil {
			return 0, fmt.Errorf("%s=%q: %w", MemoryEnv, v, err)
		}
		return n, nil
	}
	total := physicalMemory()
	if total <= 0 {
		return 0, nil
	}
	return max(total/2, minMemoryLimit), nil
}

func parseSize(v string) (int64, error) {
	if v == "off" {
		return 0, nil
	}
	mult := int64(1)
	switch strings.ToUpper(v[len(v)-1:]) {
	case "K":
		mult = 1 << 10
	case "M":
		mult = 1 << 20
	case "G":
		mult = 1 << 30
	}
	if mult > 1 {
		v = v[:len(v)-1]
	}
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("not a size (bytes, or a number with K, M or G)")
	}
	return n * mult, nil
}

// memoryLimit is the cap to apply to a new process, 0 for none. Only a
// native binary is capped: node (npm's wrapper) reserves far more address
// space than it uses, so an address-space cap would stop it from starting.
func (s *Server) memoryLimit() int64 {
	limit := s.opts.MemoryLimit
	if limit < 0 {
		return 0
	}
	if limit == 0 {
		var err error
		if limit, err = DefaultMemoryLimit(); err != nil {
			s.logf("tsls: %v; the server's memory is not capped", err)
			return 0
		}
	}
	if limit == 0 || !isNative(s.opts.TsgoPath) {
		return 0
	}
	return limit
}
