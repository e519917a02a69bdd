package executor

import (
	"errors"
	"fmt"
	"io"
	"os"
	"testing"
)

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
