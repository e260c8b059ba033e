package tsls

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/scry-dev/scry/internal/cachedir"
	"github.com/scry-dev/scry/internal/workspace"
)

// PinnedVersion is the TypeScript release `scry setup` installs.
const PinnedVersion = "7.0.2"

// EnvTsgo names the environment variable that points at a tsgo binary (or a
// directory holding one, e.g. an npm --prefix directory).
const EnvTsgo = "SCRY_TSGO"

// Where a binary was found.
const (
	SourceFlag      = "flag"
	SourceEnv       = "env"
	SourceWorkspace = "workspace"
	SourcePath      = "path"
	SourceCache     = "cache"
)

// ErrNotFound is returned by Find when no TypeScript ≥ 7 binary exists in
// any of the places it looks.
var ErrNotFound = errors.New("TypeScript 7 (tsgo) not found; run `scry setup` to install it")

// FindOptions says where to look.
type FindOptions struct {
	// Flag is an explicit, absolute path (the tsgo setting: user config,
	// environment or a trusted workspace); it wins over everything.
	Flag string
	// Root is the workspace root; its node_modules (and its ancestors',
	// as Node resolves them) are searched when TrustWorkspace is set.
	Root string
	// TrustWorkspace lets Find run the TypeScript installed in the
	// workspace's node_modules. A repository being indexed is not trusted
	// by default: its node_modules could hold any program named tsc, and
	// even asking it for --version runs it.
	TrustWorkspace bool
	// PassedOver, when set, is told about a workspace TypeScript that was
	// not used because the workspace is not trusted, so the user hears
	// why (never silently).
	PassedOver func(nodeModules string)
	// CacheDir is scry's cache directory; "" means cachedir.Dir().
	CacheDir string
	// Getenv reads the environment; nil means os.Getenv.
	Getenv func(string) string
	// LookPath searches PATH; nil means exec.LookPath.
	LookPath func(string) (string, error)
}

// Check is one place Find looked and what it saw there.
type Check struct {
	Source string `json:"source"`
	Path   string `json:"path"`
	Result string `json:"result"`
}

// Find locates a TypeScript ≥ 7 compiler binary that can run
// `--lsp --stdio`, in this order: the explicit flag, $SCRY_TSGO, the
// workspace's node_modules (nearest first), tsgo or a TS ≥ 7 tsc on PATH,
// scry's cache. It returns the path of the native executable when it can
// resolve one (npm's bin/tsc is a node script that spawns it; running the
// native binary directly saves a node start-up and leaves one process to
// supervise), and the source it came from.
func Find(opts FindOptions) (path, source string, err error) {
	path, source, _, err = search(opts, nil)
	return path, source, err
}

// search implements Find and records each candidate for Diagnose.
func search(opts FindOptions, record func(Check)) (path, source, version string, err error) {
	getenv := opts.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	lookPath := opts.LookPath
	if lookPath == nil {
		lookPath = exec.LookPath
	}
	note := func(src, p, result string) {
		if record != nil {
			record(Check{Source: src, Path: p, Result: result})
		}
	}

	// Explicit choices are errors when wrong, never silently skipped: the
	// user asked for that binary.
	for _, ex := range []struct{ src, val string }{{SourceFlag, opts.Flag}, {SourceEnv, getenv(EnvTsgo)}} {
		if ex.val == "" {
			continue
		}
		bin, ver, err := checkExplicit(ex.val)
		if err != nil {
			note(ex.src, ex.val, err.Error())
			return "", "", "", fmt.Errorf("%s %q: %w", describeSource(ex.src), ex.val, err)
		}
		note(ex.src, bin, "TypeScript "+ver)
		return bin, ex.src, ver, nil
	}

	if opts.Root != "" && !opts.TrustWorkspace {
		root, _ := filepath.Abs(opts.Root)
		if nm := workspaceTypeScript(root); nm != "" {
			note(SourceWorkspace, nm, "not used: the workspace is not trusted (`scry trust` to use its own TypeScript)")
			if opts.PassedOver != nil {
				opts.PassedOver(nm)
			}
		}
	}
	if opts.Root != "" && opts.TrustWorkspace {
		root, _ := filepath.Abs(opts.Root)
		looked := false
		for dir := root; ; {
			nm := filepath.Join(dir, "node_modules")
			if bin, ver, why := fromNodeModules(nm); bin != "" {
				note(SourceWorkspace, bin, "TypeScript "+ver)
				return bin, SourceWorkspace, ver, nil
			} else if why != "" {
				note(SourceWorkspace, nm, why)
				looked = true
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				break
			}
			dir = parent
		}
		if !looked {
			note(SourceWorkspace, root, "no node_modules here or above")
		}
	}

	for _, name := range []string{"tsgo", "tsc"} {
		p, err := lookPath(name)
		if err != nil {
			note(SourcePath, name, "not on PATH")
			continue
		}
		bin := nativeFor(p)
		ver, err := binaryVersion(bin)
		if err != nil {
			note(SourcePath, p, err.Error())
			continue
		}
		if major(ver) < 7 {
			note(SourcePath, p, "TypeScript "+ver+" (need ≥ 7)")
			continue
		}
		note(SourcePath, bin, "TypeScript "+ver)
		return bin, SourcePath, ver, nil
	}

	cache := opts.CacheDir
	if cache == "" {
		if cache, err = cachedir.Dir(); err != nil {
			return "", "", "", err
		}
	}
	nm := filepath.Join(cache, "tsgo", "node_modules")
	if bin, ver, why := fromNodeModules(nm); bin != "" {
		note(SourceCache, bin, "TypeScript "+ver)
		return bin, SourceCache, ver, nil
	} else {
		if why == "" {
			why = "not installed"
		}
		note(SourceCache, nm, why)
	}
	return "", "", "", ErrNotFound
}

func describeSource(src string) string {
	if src == SourceFlag {
		return "the tsgo setting"
	}
	return "$" + EnvTsgo
}

// workspaceTypeScript is the nearest node_modules at or above root that
// declares a TypeScript package, found without running anything; "" when
// there is none.
func workspaceTypeScript(root string) string {
	for dir := root; ; {
		nm := filepath.Join(dir, "node_modules")
		if packageVersion(filepath.Join(nm, "typescript", "package.json")) != "" ||
			packageVersion(filepath.Join(nm, "@typescript", "native-preview", "package.json")) != "" {
			return nm
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// checkExplicit accepts a binary, an npm bin wrapper, a package directory or
// an npm --prefix directory, given by an absolute path: a relative one
// would be resolved against the current directory, which may be the very
// repository being indexed.
func checkExplicit(p string) (bin, version string, err error) {
	if !filepath.IsAbs(p) {
		return "", "", errors.New("not an absolute path (relative paths are not resolved against the current directory)")
	}
	st, err := os.Stat(p)
	if err != nil {
		return "", "", err
	}
	if st.IsDir() {
		for _, nm := range []string{filepath.Join(p, "node_modules"), p, filepath.Dir(p)} {
			if b, v, _ := fromNodeModules(nm); b != "" {
				return b, v, nil
			}
		}
		for _, c := range []string{filepath.Join(p, "lib", "tsc"), filepath.Join(p, "lib", "tsgo"), filepath.Join(p, "tsgo"), filepath.Join(p, "tsc")} {
			if isExecutable(c) {
				p = c
				break
			}
		}
	}
	bin = nativeFor(p)
	version, err = binaryVersion(bin)
	if err != nil {
		return "", "", err
	}
	if major(version) < 7 {
		return "", "", fmt.Errorf("TypeScript %s has no native language server (need ≥ 7)", version)
	}
	return bin, version, nil
}

// platformPackage is the suffix npm uses for the native binary's package:
// "linux-x64", "darwin-arm64", "win32-x64", ...
func platformPackage() string {
	osName := runtime.GOOS
	if osName == "windows" {
		osName = "win32"
	}
	arch := runtime.GOARCH
	switch arch {
	case "amd64":
		arch = "x64"
	case "386":
		arch = "ia32"
	}
	return osName + "-" + arch
}

func exeName(base string) string {
	if runtime.GOOS == "windows" {
		return base + ".exe"
	}
	return base
}

// nativeCandidates lists where npm puts the native binary of a TS ≥ 7
// package installed in node_modules directory nm: hoisted beside it, or
// nested under the package when hoisting was not possible.
func nativeCandidates(nm string) []string {
	plat := platformPackage()
	var out []string
	for _, pkg := range []struct{ main, native, bin string }{
		{"typescript", "typescript-" + plat, "tsc"},
		{filepath.Join("@typescript", "native-preview"), "native-preview-" + plat, "tsgo"},
	} {
		out = append(out,
			filepath.Join(nm, "@typescript", pkg.native, "lib", exeName(pkg.bin)),
			filepath.Join(nm, pkg.main, "node_modules", "@typescript", pkg.native, "lib", exeName(pkg.bin)),
		)
	}
	return out
}

// fromNodeModules looks for a TS ≥ 7 native binary in a node_modules
// directory. It returns why it failed when the directory exists (for the
// doctor), "" when there was nothing to look at.
func fromNodeModules(nm string) (bin, version, why string) {
	if st, err := os.Stat(nm); err != nil || !st.IsDir() {
		return "", "", ""
	}
	declared := packageVersion(filepath.Join(nm, "typescript", "package.json"))
	preview := packageVersion(filepath.Join(nm, "@typescript", "native-preview", "package.json"))
	if declared == "" && preview == "" {
		return "", "", "no typescript package"
	}
	if declared != "" && major(declared) < 7 && preview == "" {
		return "", "", "typescript " + declared + " (need ≥ 7)"
	}
	for _, c := range nativeCandidates(nm) {
		if !isExecutable(c) {
			continue
		}
		v, err := binaryVersion(c)
		if err != nil || major(v) < 7 {
			continue
		}
		return c, v, ""
	}
	return "", "", "typescript " + declared + " but no native binary for " + platformPackage()
}

func packageVersion(pkgJSON string) string {
	// In the workspace's node_modules: as untrusted as any workspace file.
	b, err := workspace.ReadRegular(pkgJSON, 1<<20)
	if err != nil {
		return ""
	}
	var p struct {
		Version string `json:"version"`
	}
	if json.Unmarshal(b, &p) != nil {
		return ""
	}
	return p.Version
}

// nativeFor maps npm's node wrapper (…/typescript/bin/tsc, usually reached
// through a node_modules/.bin symlink) to the native binary beside it. Any
// other path is returned unchanged.
func nativeFor(p string) string {
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return p
	}
	if isNative(real) {
		return real
	}
	// …/node_modules/typescript/bin/tsc → …/node_modules
	binDir := filepath.Dir(real)
	pkgDir := filepath.Dir(binDir)
	if filepath.Base(binDir) == "bin" {
		nm := filepath.Dir(pkgDir)
		if filepath.Base(pkgDir) == "native-preview" {
			nm = filepath.Dir(nm)
		}
		for _, c := range nativeCandidates(nm) {
			if isExecutable(c) && isNative(c) {
				return c
			}
		}
	}
	return p
}

// isNative reports whether a file is a compiled executable rather than a
// script (ELF, Mach-O or PE magic).
func isNative(p string) bool {
	// Never a FIFO or device: opening one for reading can block.
	f, _, err := workspace.OpenRegular(p, math.MaxInt64)
	if err != nil {
		return false
	}
	defer f.Close()
	var magic [4]byte
	if _, err := io.ReadFull(f, magic[:]); err != nil {
		return false
	}
	switch {
	case bytes.Equal(magic[:], []byte{0x7f, 'E', 'L', 'F'}),
		bytes.Equal(magic[:], []byte{0xcf, 0xfa, 0xed, 0xfe}),
		bytes.Equal(magic[:], []byte{0xce, 0xfa, 0xed, 0xfe}),
		bytes.Equal(magic[:], []byte{0xca, 0xfe, 0xba, 0xbe}),
		magic[0] == 'M' && magic[1] == 'Z':
		return true
	}
	return false
}

func isExecutable(p string) bool {
	st, err := os.Stat(p)
	if err != nil || st.IsDir() {
		return false
	}
	return runtime.GOOS == "windows" || st.Mode()&0o111 != 0
}

var versionRe = regexp.MustCompile(`(\d+)\.(\d+)\.(\d+)[0-9A-Za-z.+-]*`)

// binaryVersion runs `bin --version` ("Version 7.0.2").
func binaryVersion(bin string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	// A version is one short line: more output than maxVersionOutput ends
	// the program (one that printed without end was buffered to 8 GB).
	cmd := exec.CommandContext(ctx, bin, "--version")
	cmd.WaitDelay = time.Second // a child of the program may hold the pipe
	out := &cappedBuffer{max: maxVersionOutput, full: cancel}
	cmd.Stdout = out
	err := cmd.Run()
	if out.overflow {
		return "", fmt.Errorf("run %s --version: more than %d bytes of output", bin, maxVersionOutput)
	}
	if err != nil {
		return "", fmt.Errorf("run %s --version: %w", bin, err)
	}
	m := versionRe.Find(out.b)
	if m == nil {
		return "", fmt.Errorf("%s --version printed no version: %q", bin, strings.TrimSpace(string(out.b)))
	}
	return string(m), nil
}

const maxVersionOutput = 64 << 10

// cappedBuffer keeps up to max bytes; past them it calls full (which stops
// the writer) and refuses further writes.
type cappedBuffer struct {
	b        []byte
	max      int
	overflow bool
	full     func()
}

func (c *cappedBuffer) Write(p []byte) (int, error) {
	if len(c.b)+len(p) > c.max {
		if !c.overflow {
			c.overflow = true
			c.full()
		}
		return 0, errors.New("output over the limit")
	}
	c.b = append(c.b, p...)
	return len(p), nil
}

func major(version string) int {
	head, _, _ := strings.Cut(version, ".")
	n, err := strconv.Atoi(strings.TrimPrefix(head, "v"))
	if err != nil {
		return 0
	}
	return n
}

// Setup installs TypeScript PinnedVersion into <cacheDir>/tsgo with the npm
// client, which uses whatever registry the machine is configured for. npm's
// output goes to stdout.
func Setup(ctx context.Context, cacheDir string, stdout io.Writer) error {
	if cacheDir == "" {
		d, err := cachedir.Dir()
		if err != nil {
			return err
		}
		cacheDir = d
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		return fmt.Errorf("setup needs npm (Node.js) on PATH to install typescript@%s: %w", PinnedVersion, err)
	}
	prefix := filepath.Join(cacheDir, "tsgo")
	if err := os.MkdirAll(prefix, 0o755); err != nil {
		return fmt.Errorf("create %s: %w", prefix, err)
	}
	// --ignore-scripts: the packages need no install scripts (the native
	// binary ships in a platform package), so run none.
	cmd := exec.CommandContext(ctx, npm, "install", "--prefix", prefix,
		"--no-audit", "--no-fund", "--ignore-scripts", "typescript@"+PinnedVersion)
	if stdout == nil {
		stdout = io.Discard
	}
	cmd.Stdout = stdout
	cmd.Stderr = stdout
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("npm install typescript@%s into %s: %w", PinnedVersion, prefix, err)
	}
	bin, ver, why := fromNodeModules(filepath.Join(prefix, "node_modules"))
	if bin == "" {
		return fmt.Errorf("installed typescript@%s into %s but found no usable binary: %s", PinnedVersion, prefix, why)
	}
	fmt.Fprintf(stdout, "TypeScript %s ready: %s\n", ver, bin)
	return nil
}

// Report is what `scry doctor` shows about the language server.
type Report struct {
	Found   bool    `json:"found"`
	Path    string  `json:"path,omitempty"`
	Version string  `json:"version,omitempty"`
	Source  string  `json:"source,omitempty"`
	Checked []Check `json:"checked"`
	// Error is set when an explicit choice (--tsgo, $SCRY_TSGO) is unusable.
	Error string `json:"error,omitempty"`
	// Fix says how to get a working setup when none was found.
	Fix string `json:"fix,omitempty"`
}

// Diagnose searches like Find with default options for root and reports
// every place it looked.
func Diagnose(root string) Report {
	return DiagnoseWith(FindOptions{Root: root})
}

// DiagnoseWith is Diagnose with explicit options.
func DiagnoseWith(opts FindOptions) Report {
	var r Report
	path, source, version, err := search(opts, func(c Check) { r.Checked = append(r.Checked, c) })
	if err == nil {
		r.Found, r.Path, r.Source, r.Version = true, path, source, version
		return r
	}
	if !errors.Is(err, ErrNotFound) {
		r.Error = err.Error()
		r.Fix = "fix or unset the explicit choice (the tsgo setting / $" + EnvTsgo + "), or run `scry setup`"
		return r
	}
	cache := opts.CacheDir
	if cache == "" {
		cache, _ = cachedir.Dir()
	}
	r.Fix = fmt.Sprintf("run `scry setup` (installs typescript@%s into %s with npm)", PinnedVersion, filepath.Join(cache, "tsgo"))
	if _, err := exec.LookPath("npm"); err != nil {
		r.Fix += "; npm is not on PATH: install Node.js first, or point $" + EnvTsgo + " at a tsgo binary"
	}
	return r
}

// String renders the report for people.
func (r Report) String() string {
	var b strings.Builder
	if r.Found {
		fmt.Fprintf(&b, "TypeScript %s (tsgo): %s [from %s]\n", r.Version, r.Path, r.Source)
	} else {
		b.WriteString("TypeScript 7 (tsgo): not available — structure answers will be approximate\n")
	}
	for _, c := range r.Checked {
		fmt.Fprintf(&b, "  checked %-9s %s: %s\n", c.Source, c.Path, c.Result)
	}
	if r.Error != "" {
		fmt.Fprintf(&b, "  error: %s\n", r.Error)
	}
	if r.Fix != "" {
		fmt.Fprintf(&b, "  fix: %s\n", r.Fix)
	}
	return b.String()
}
