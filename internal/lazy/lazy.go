// Package lazy holds package-level values that are built on first use.
//
// Every suite binary is also every fork, and a process runs the package
// initialisation of everything it links before main: a table or a
// compiled regexp in a package-level variable costs every fork its
// allocations and the page faults they bring, even when only the parent
// ever reads it. sync.OnceValue defers the work but not its own cost: the
// call runs at initialisation and allocates the closure's state. A Value
// written as a composite literal with a function literal that captures
// nothing is laid out by the compiler in the binary's data: its package
// gets no initialisation code for it at all.
//
//	var settingKeys = lazy.Value[map[string]decoder]{New: func() map[string]decoder {
//		return map[string]decoder{…}
//	}}
//
//	… settingKeys.Get() …
package lazy

import "sync"

// Value is a value of type T built by New on the first call of Get and
// kept. Get may be called from several goroutines; New runs once. A
// Value must not be copied after first use.
type Value[T any] struct {
	New  func() T
	once sync.Once
	v    T
}

// Get returns the value, building it on the first call.
func (l *Value[T]) Get() T {
	l.once.Do(l.build)
	return l.v
}

func (l *Value[T]) build() { l.v = l.New() }
