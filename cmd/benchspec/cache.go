package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/benchspec/benchspec/cmd/benchspec/internal/cli"
	"github.com/benchspec/benchspec/executor/gotest"
	"github.com/benchspec/benchspec/report/format"
)

const cacheHelp = `Show or prune the cache of test binaries that run uses for package:
entries. Its directory is $BENCHSPEC_CACHE, else benchspec/testbin in the
user's cache directory. A test binary's age is the time since a batch last
used it. After every build, run removes the binaries older than the age
limit, then the least recently used beyond the size limit:
$BENCHSPEC_CACHE_MAX_AGE (a duration, or days: 30d; default 30d) and
$BENCHSPEC_CACHE_MAX_SIZE (bytes, or with KB, MB, GB, KiB, MiB, GiB;
default 2GiB).

  benchspec cache          lists the binaries, most recently used first
  benchspec cache prune    applies the limits now (flags override them)
  benchspec cache clear    removes everything in the cache`

func runCache(e *cli.Env, args []string) int {
	fs := e.Flags("cache [prune|clear] [flags]", cacheHelp)
	dir := fs.String("dir", "", "the cache directory (default $BENCHSPEC_CACHE or the user's cache directory)")
	maxAge := fs.String("max-age", "", "prune: remove binaries unused for longer than this (72h, 30d)")
	maxSize := fs.String("max-size", "", "prune: then remove the least recently used until the cache is this small (500MB, 2GiB)")
	pos, status, ok := e.Parse(fs, args)
	if !ok {
		return status
	}
	stdout := e.Stdout
	cache := *dir
	if cache == "" {
		cache = gotest.DefaultCacheDir()
	}
	action := "show"
	if len(pos) > 0 {
		action = pos[0]
	}
	if len(pos) > 1 || action != "show" && action != "prune" && action != "clear" {
		return e.UsageError("unknown arguments %q: want nothing, prune or clear", pos)
	}
	if action != "prune" && (*maxAge != "" || *maxSize != "") {
		return e.UsageError("--max-age and --max-size apply to prune")
	}
	limits := gotest.LimitsFromEnv()
	if *maxAge != "" {
		d, err := gotest.ParseAge(*maxAge)
		if err != nil {
			return e.UsageError("--max-age: %v", err)
		}
		limits.MaxAge = d
	}
	if *maxSize != "" {
		n, err := gotest.ParseSize(*maxSize)
		if err != nil {
			return e.UsageError("--max-size: %v", err)
		}
		limits.MaxBytes = n
	}
	switch action {
	case "prune", "clear":
		var removed []gotest.Entry
		var err error
		if action == "clear" {
			removed, err = gotest.Clear(cache)
		} else {
			removed, err = limits.Prune(cache)
		}
		var total int64
		for _, e := range removed {
			total += e.Size
		}
		fmt.Fprintf(stdout, "removed %d test binaries (%s) from %s\n", len(removed), bytesText(total), cache)
		if err != nil {
			return e.Fail(err)
		}
		return exitOK
	}
	entries, err := gotest.Entries(cache)
	if err != nil {
		return e.Fail(err)
	}
	fmt.Fprintf(stdout, "Test-binary cache: %s\nLimits: %s, %s unused\n", cache, bytesText(limits.MaxBytes), ageText(limits.MaxAge))
	var total int64
	var rows [][]string
	for _, e := range entries {
		total += e.Size
		rows = append(rows, []string{bytesText(e.Size), e.LastUsed.Format("2006-01-02 15:04"), e.Path[len(cache)+1:]})
	}
	if len(rows) > 0 {
		table := format.TextTable([]string{"Size", "Last used", "Binary"}, rows, format.Right)
		fmt.Fprint(stdout, "\n  "+strings.ReplaceAll(strings.TrimSuffix(table, "\n"), "\n", "\n  ")+"\n\n")
	}
	fmt.Fprintf(stdout, "%d test binaries, %s\n", len(entries), bytesText(total))
	return exitOK
}

func bytesText(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

func ageText(d time.Duration) string {
	if d > 0 && d%(24*time.Hour) == 0 {
		return fmt.Sprintf("%dd", d/(24*time.Hour))
	}
	return d.String()
}
