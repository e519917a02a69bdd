package executor

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"testing"
	"time"

	"github.com/benchspec/benchspec/internal/protocol"
	"github.com/benchspec/benchspec/plan"
	"github.com/benchspec/benchspec/spec"
)

// The encoder writes exactly what json.Marshal writes for an assignment,
// whether the run's part comes from its cache or not.
func TestAssignmentEncoder(t *testing.T) {
	// The encoder writes the fields of protocol.Assignment by hand: a new
	// field must be added there too.
	var names []string
	at := reflect.TypeFor[protocol.Assignment]()
	for i := range at.NumField() {
		names = append(names, at.Field(i).Name)
	}
	if want := []string{"Run", "Fork", "Warmup", "ProfileDir"}; !reflect.DeepEqual(names, want) {
		t.Fatalf("protocol.Assignment has fields %v; assignmentEncoder.encode writes %v", names, want)
	}
	s := spec.DefaultSettings()
	s.Env = map[string]string{"A": "1 <&> é"}
	runs := []plan.Run{
		{Index: 0, Key: "a:avgt", Benchmark: "a", Mode: spec.ModeAverageTime, Settings: s, Params: []plan.Param{{Name: "n", Value: "<3>"}}},
		{Index: 1, Key: "b:sample", Benchmark: "b", Mode: spec.ModeSampleTime, Settings: s.Clone(), Estimate: time.Second},
	}
	var e assignmentEncoder
	for _, a := range []protocol.Assignment{
		{Run: runs[0], Fork: 1, Warmup: true},
		{Run: runs[0], Fork: 2},
		{Run: runs[0], Fork: 3, ProfileDir: "/tmp/p <&> \"q\" é"},
		{Run: runs[1], Fork: 1},
		{Run: runs[0], Fork: 4},
	} {
		for _, iterations := range []int{0, 7} {
			if iterations > 0 {
				a.Run.Settings.Measurement.Iterations = iterations
			}
			want, err := json.Marshal(&a)
			if err != nil {
				t.Fatal(err)
			}
			for range 2 { // the second from the cache
				if got := e.encode(&a); string(got) != string(want) {
					t.Errorf("fork %d of %s:\ngot  %s\nwant %s", a.Fork, a.Run.Key, got, want)
				}
			}
		}
	}
}

// quietReader reads what was written, then EOF once the write end is
// closed; a read blocked when the parent closes its end ends with
// os.ErrClosed (readMessages says nothing of it).
func TestQuietReader(t *testing.T) {
	r, w, err := pipe()
	if err != nil {
		t.Fatal(err)
	}
	q := quietReader(r)
	done := make(chan string)
	go func() {
		data, err := io.ReadAll(q)
		done <- fmt.Sprintf("%q %v", data, err)
	}()
	w.Write([]byte("hello\n"))
	w.Write([]byte("world\n"))
	w.Close()
	if got, want := <-done, `"hello\nworld\n" <nil>`; got != want {
		t.Errorf("read %s, want %s", got, want)
	}
	r.Close()

	r, w, err = pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	q = quietReader(r)
	ended := make(chan error)
	go func() {
		_, err := q.Read(make([]byte, 10))
		ended <- err
	}()
	r.Close()
	if err := <-ended; !errors.Is(err, os.ErrClosed) {
		t.Errorf("a read blocked while the file was closed: %v, want os.ErrClosed", err)
	}
}
