package protocol

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestDecodeAssignmentMatchesEncodingJSON fills every field of an
// Assignment by reflection with random values, writes it as the parent
// does (json.Marshal) and expects DecodeAssignment to read back what
// encoding/json reads, field for field.
func TestDecodeAssignmentMatchesEncodingJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := range 1000 {
		var a Assignment
		fillAssignment(r, reflect.ValueOf(&a).Elem(), i%3 == 0)
		data, err := json.Marshal(&a)
		if err != nil {
			t.Fatal(err)
		}
		var want, got Assignment
		if err := json.Unmarshal(data, &want); err != nil {
			t.Fatal(err)
		}
		if err := DecodeAssignment(data, &got); err != nil {
			t.Fatalf("DecodeAssignment(%s): %v", data, err)
		}
		if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("DecodeAssignment(%s) (-encoding/json +got):\n%s", data, diff)
		}
	}
}

func TestDecodeAssignmentRefuses(t *testing.T) {
	for data, want := range map[string]string{
		``:              "unexpected end",
		`{"fork": 1`:    "expected ',' or '}'",
		`{"fork": "x"}`: "assignment.fork: cannot read string into int",
		`{"fork": 1.5}`: "1.5 is not a int",
		`{"run": {"Settings": {"Warmup": {"Time": "1x"}}}}`: `assignment.run.Settings.Warmup.Time: time: unknown unit "x"`,
		`{"fork": 1} x`:            "data after the top-level value",
		`{"run": {"Key": "a\qb"}}`: `invalid escape \q`,
	} {
		var a Assignment
		err := DecodeAssignment([]byte(data), &a)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("DecodeAssignment(%s) = %v, want an error containing %q", data, err, want)
		}
	}
}

// fillAssignment is fillRandom with values an assignment can hold: durations
// whole nanoseconds, floats finite.
func fillAssignment(r *rand.Rand, v reflect.Value, sparse bool) {
	if v.Type() == reflect.TypeFor[time.Duration]() {
		v.SetInt(r.Int64N(int64(time.Hour)))
		return
	}
	switch v.Kind() {
	case reflect.Int:
		v.SetInt(r.Int64N(1<<31) - 1<<30)
		return
	case reflect.Pointer:
		if sparse && r.IntN(2) == 0 {
			return
		}
		v.Set(reflect.New(v.Type().Elem()))
		fillAssignment(r, v.Elem(), sparse)
		return
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fillAssignment(r, v.Field(i), sparse)
			}
		}
		return
	case reflect.Slice:
		if sparse && r.IntN(2) == 0 {
			return
		}
		n := r.IntN(4)
		v.Set(reflect.MakeSlice(v.Type(), n, n))
		for i := range n {
			fillAssignment(r, v.Index(i), false)
		}
		return
	case reflect.Array:
		for i := range v.Len() {
			fillAssignment(r, v.Index(i), false)
		}
		return
	case reflect.Map:
		if sparse && r.IntN(2) == 0 {
			return
		}
		v.Set(reflect.MakeMap(v.Type()))
		for range r.IntN(4) {
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			fillAssignment(r, k, false)
			fillAssignment(r, e, false)
			v.SetMapIndex(k, e)
		}
		return
	}
	fillRandom(r, v, sparse) // scalars: encode_test.go's rules
}
