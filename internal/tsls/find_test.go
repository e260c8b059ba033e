package tsls

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeBin writes an executable script printing "Version <v>".
func fakeBin(t *testing.T, path, version string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	script := "#!/bin/sh\necho 'Version " + version + "'\n"
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// fakeInstall lays out node_modules the way npm installs typescript.
func fakeInstall(t *testing.T, nm, version string) string {
	t.Helper()
	pkg := filepath.Join(nm, "typescript")
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(pkg, "package.json"), []byte(`{"name":"typescript","version":"`+version+`"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if major(version) < 7 {
		return ""
	}
	return fakeBin(t, filepath.Join(nm, "@typescript", "typescript-"+platformPackage(), "lib", exeName("tsc")), version)
}

func TestFindOrder(t *testing.T) {
	dir := t.TempDir()
	flagBin := fakeBin(t, filepath.Join(dir, "flag", "tsgo"), "7.0.2")
	envBin := fakeBin(t, filepath.Join(dir, "env", "tsgo"), "7.0.1")
	ws := filepath.Join(dir, "ws", "packages", "app")
	if err := os.MkdirAll(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	// The package's own node_modules has TS 5 (skipped); the monorepo root
	// above it has TS 7 (found, as Node would resolve it).
	fakeInstall(t, filepath.Join(ws, "node_modules"), "5.9.3")
	wsBin := fakeInstall(t, filepath.Join(dir, "ws", "node_modules"), "7.0.2")
	pathTsc := fakeBin(t, filepath.Join(dir, "bin", "tsc"), "7.0.0")
	oldTsc := fakeBin(t, filepath.Join(dir, "oldbin", "tsc"), "5.4.0")
	cache := filepath.Join(dir, "cache")
	cacheBin := fakeInstall(t, filepath.Join(cache, "tsgo", "node_modules"), "7.0.2")

	env := map[string]string{}
	lookups := map[string]string{}
	opts := func(flag, root string) FindOptions {
		return FindOptions{
			Flag: flag, Root: root, CacheDir: cache, TrustWorkspace: true,
			Getenv: func(k string) string { return env[k] },
			LookPath: func(name string) (string, error) {
				if p, ok := lookups[name]; ok {
					return p, nil
				}
				return "", errors.New("not found")
			},
		}
	}
	check := func(o FindOptions, wantPath, wantSource string) {
		t.Helper()
		p, src, err := Find(o)
		if err != nil {
			t.Fatalf("Find: %v", err)
		}
		if p != wantPath || src != wantSource {
			t.Fatalf("Find = %s (%s), want %s (%s)", p, src, wantPath, wantSource)
		}
	}

	env[EnvTsgo] = envBin
	lookups["tsc"] = pathTsc
	check(opts(flagBin, ws), flagBin, SourceFlag)
	check(opts("", ws), envBin, SourceEnv)
	delete(env, EnvTsgo)
	check(opts("", ws), wsBin, SourceWorkspace)
	check(opts("", dir), pathTsc, SourcePath)
	lookups["tsc"] = oldTsc // TS 5 on PATH is not a language server
	check(opts("", dir), cacheBin, SourceCache)

	// An explicit choice that is wrong is an error, not a fallthrough.
	env[EnvTsgo] = oldTsc
	if _, _, err := Find(opts("", ws)); err == nil || !strings.Contains(err.Error(), "need ≥ 7") {
		t.Fatalf("Find with TS 5 in $%s: err = %v", EnvTsgo, err)
	}
	// A directory is accepted: an npm --prefix dir.
	env[EnvTsgo] = filepath.Join(cache, "tsgo")
	check(opts("", ws), cacheBin, SourceEnv)
	delete(env, EnvTsgo)

	// Nothing anywhere: ErrNotFound, and the doctor says how to fix it.
	empty := t.TempDir()
	none := opts("", empty)
	none.CacheDir = filepath.Join(empty, "cache")
	delete(lookups, "tsc")
	if _, _, err := Find(none); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Find with nothing installed: %v", err)
	}
	rep := DiagnoseWith(none)
	if rep.Found || !strings.Contains(rep.Fix, "scry setup") || len(rep.Checked) == 0 {
		t.Fatalf("Diagnose = %+v", rep)
	}
	if !strings.Contains(rep.String(), "not available") {
		t.Fatalf("Report.String() = %q", rep.String())
	}
	rep = DiagnoseWith(opts("", ws))
	if !rep.Found || rep.Path != wsBin || rep.Version != "7.0.2" || rep.Source != SourceWorkspace {
		t.Fatalf("Diagnose = %+v", rep)
	}
}

// TestUntrustedWorkspaceTypeScriptNeverRuns is issue 18 item 1: a "tsc"
// under an untrusted repository's node_modules is neither used nor run
// (not even for --version), a relative explicit path is refused instead of
// being resolved against the current directory, and the doctor says why.
func TestUntrustedWorkspaceTypeScriptNeverRuns(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "ran")
	ws := filepath.Join(dir, "repo")
	nm := filepath.Join(ws, "node_modules")
	fakeInstall(t, nm, "7.0.2")
	evil := filepath.Join(nm, "@typescript", "typescript-"+platformPackage(), "lib", exeName("tsc"))
	script := "#!/bin/sh\n: > " + marker + "\necho 'Version 7.0.2'\n"
	if err := os.WriteFile(evil, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "fake-tsc"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	cache := filepath.Join(dir, "cache")
	cacheBin := fakeInstall(t, filepath.Join(cache, "tsgo", "node_modules"), "7.0.2")
	var passed []string
	opts := FindOptions{Root: ws, CacheDir: cache,
		Getenv:     func(string) string { return "" },
		LookPath:   func(string) (string, error) { return "", errors.New("none") },
		PassedOver: func(nm string) { passed = append(passed, nm) },
	}
	p, src, err := Find(opts)
	if err != nil || p != cacheBin || src != SourceCache {
		t.Fatalf("Find in an untrusted workspace = %s (%s) %v, want the cache's %s", p, src, err, cacheBin)
	}
	if len(passed) != 1 || passed[0] != nm {
		t.Errorf("passed over %v, want the workspace's %s reported", passed, nm)
	}
	rep := DiagnoseWith(opts)
	if !strings.Contains(rep.String(), "not trusted") {
		t.Errorf("doctor does not say the workspace TypeScript was passed over:\n%s", rep)
	}

	// A relative explicit path is not resolved against the current
	// directory, even when that is the repository.
	wd, _ := os.Getwd()
	if err := os.Chdir(ws); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	rel := opts
	rel.Flag = "fake-tsc"
	if _, _, err := Find(rel); err == nil || !strings.Contains(err.Error(), "absolute") {
		t.Errorf("relative tsgo path: err %v, want a refusal", err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("a program from the untrusted workspace was run")
	}

	// Trusted, the workspace's own TypeScript is used.
	opts.TrustWorkspace = true
	if p, src, err := Find(opts); err != nil || p != evil || src != SourceWorkspace {
		t.Errorf("trusted workspace: %s (%s) %v, want %s", p, src, err, evil)
	}
}

// TestFindResolvesWrapper: npm's node_modules/.bin/tsc is a node script;
// Find must hand back the native binary next to it.
func TestFindResolvesWrapper(t *testing.T) {
	real := os.Getenv(EnvTsgo)
	if real == "" || !isNative(real) {
		t.Skip("needs $SCRY_TSGO pointing at the native tsc binary")
	}
	dir := t.TempDir()
	nm := filepath.Join(dir, "node_modules")
	native := filepath.Join(nm, "@typescript", "typescript-"+platformPackage(), "lib", exeName("tsc"))
	if err := os.MkdirAll(filepath.Dir(native), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, native); err != nil {
		t.Fatal(err)
	}
	wrapper := fakeBin(t, filepath.Join(nm, "typescript", "bin", "tsc"), "7.0.2")
	if err := os.WriteFile(filepath.Join(nm, "typescript", "package.json"), []byte(`{"version":"7.0.2"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(nm, ".bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(nm, ".bin", "tsc")
	if err := os.Symlink("../typescript/bin/tsc", link); err != nil {
		t.Fatal(err)
	}
	_ = wrapper
	got, _ := filepath.EvalSymlinks(nativeFor(link))
	want, _ := filepath.EvalSymlinks(real)
	if got != want {
		t.Fatalf("nativeFor(.bin/tsc) = %s, want %s", got, want)
	}
}

// TestSetup runs Setup against a stand-in npm that lays out what the real
// one installs, checking the command line and the post-install check.
func TestSetup(t *testing.T) {
	bin := t.TempDir()
	log := filepath.Join(bin, "args")
	plat := platformPackage()
	npm := `#!/bin/sh
echo "$@" > ` + log + `
prefix=""
while [ $# -gt 0 ]; do
  if [ "$1" = "--prefix" ]; then prefix="$2"; shift; fi
  shift
done
mkdir -p "$prefix/node_modules/typescript" "$prefix/node_modules/@typescript/typescript-` + plat + `/lib"
echo '{"name":"typescript","version":"7.0.2"}' > "$prefix/node_modules/typescript/package.json"
printf '#!/bin/sh\necho "Version 7.0.2"\n' > "$prefix/node_modules/@typescript/typescript-` + plat + `/lib/tsc"
chmod +x "$prefix/node_modules/@typescript/typescript-` + plat + `/lib/tsc"
echo "added 2 packages"
`
	if err := os.WriteFile(filepath.Join(bin, "npm"), []byte(npm), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	cache := t.TempDir()
	var out strings.Builder
	if err := Setup(context.Background(), cache, &out); err != nil {
		t.Fatalf("Setup: %v\n%s", err, out.String())
	}
	args, _ := os.ReadFile(log)
	want := "install --prefix " + filepath.Join(cache, "tsgo") + " --no-audit --no-fund --ignore-scripts typescript@" + PinnedVersion
	if strings.TrimSpace(string(args)) != want {
		t.Errorf("npm args = %q, want %q", strings.TrimSpace(string(args)), want)
	}
	if !strings.Contains(out.String(), "TypeScript 7.0.2 ready") {
		t.Errorf("Setup output = %q", out.String())
	}
	p, src, err := Find(FindOptions{CacheDir: cache, Getenv: func(string) string { return "" },
		LookPath: func(string) (string, error) { return "", errors.New("none") }})
	if err != nil || src != SourceCache || !strings.HasPrefix(p, cache) {
		t.Errorf("Find after Setup = %s, %s, %v", p, src, err)
	}
}
