package plan

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/internal/suggest"
	"github.com/benchspec/benchspec/spec"
)

// maxGroupThreads bounds a group's threads, all members together, as
// the schema bounds `threads:`.
const maxGroupThreads = 4096

// checkGroups reports what an entry's group_threads and threads cannot
// mean for the benchmarks it selects: group_threads for a benchmark that
// is not a group, a member a selected group lacks, more threads than a
// fork runs, and threads (the entry's or its defaults') for a group,
// whose threads are its members'.
func checkGroups(e *spec.Entry, matched []string, byName map[string]*Benchmark) spec.ErrorList {
	gt := e.Settings.GroupThreads
	var errs spec.ErrorList
	fail := func(pos spec.Pos, key, format string, args ...any) {
		errs = append(errs, &spec.Error{Pos: pos, Msg: fmt.Sprintf("benchmarks[%d].%s: ", e.Index, key) + fmt.Sprintf(format, args...)})
	}
	var group string // the first group selected
	notGroup := false
	for _, m := range matched {
		b := byName[m]
		if len(b.Members) == 0 {
			if gt != nil && !notGroup {
				notGroup = true
				fail(settingPos(e, "group_threads"), "group_threads", "%s is a benchmark, not a group (benchspec.RegisterGroup): it has no members to give threads; group_threads is for entries that select groups only: leave it out, or select %s in an entry without it (its threads: key sets a benchmark's threads)", b.Name, b.Name)
			}
			continue
		}
		if group == "" {
			group = b.Name
		}
		for _, name := range sortedMembers(gt) {
			if slices.Contains(b.Members, name) {
				continue
			}
			hint := ""
			if s := suggest.Typo(name, b.Members); s != "" {
				hint = fmt.Sprintf(" (did you mean %q?)", s)
			}
			fail(settingPos(e, "group_threads."+name, "group_threads"), "group_threads",
				"group %s has no member %q%s; its members: %s", b.Name, name, hint, strings.Join(b.Members, ", "))
		}
		if n := groupThreads(b.Members, gt); n > maxGroupThreads {
			fail(settingPos(e, "group_threads"), "group_threads", "group %s would run %d threads, its members' together; at most %d", b.Name, n, maxGroupThreads)
		}
	}
	if _, ok := e.SettingPos["threads"]; ok && group != "" {
		fail(settingPos(e, "threads"), "threads", "%s is a group, whose threads are its members' added up: a group's threads come from group_threads (1 for a member left out); leave threads out of this entry and its defaults, and give each member's, such as group_threads: {%s: 1}", group, byName[group].Members[0])
	}
	return errs
}

// sortedMembers returns the member names of group_threads, sorted: its
// errors come in one order.
func sortedMembers(gt map[string]int) []string {
	out := make([]string, 0, len(gt))
	for m := range gt {
		out = append(out, m)
	}
	sort.Strings(out)
	return out
}

// groupThreads is the threads of a group whose members run on gt's
// threads, 1 for a member gt leaves out.
func groupThreads(members []string, gt map[string]int) int {
	n := 0
	for _, m := range members {
		n += max(gt[m], 1)
	}
	return n
}

// runGroup returns a group's run's members with their threads, in declared
// order, and the group's threads, their sum; nil and the entry's threads
// for a benchmark.
func runGroup(b *Benchmark, s *spec.Settings) ([]protocol.Member, int) {
	if len(b.Members) == 0 {
		return nil, s.Threads
	}
	out := make([]protocol.Member, len(b.Members))
	for i, m := range b.Members {
		out[i] = protocol.Member{Name: m, Threads: max(s.GroupThreads[m], 1)}
	}
	return out, groupThreads(b.Members, s.GroupThreads)
}
