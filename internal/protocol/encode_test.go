package protocol

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// TestAppendMessageMatchesEncodingJSON fills every field of Message (and
// of every type inside it) by reflection with random values, tricky
// strings and numbers of every magnitude, and expects AppendMessage to
// write exactly what encoding/json's Encoder writes. A field added to one
// of the types and not to AppendMessage fails it.
func TestAppendMessageMatchesEncodingJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 2000 {
		var m Message
		fillRandom(r, reflect.ValueOf(&m).Elem(), i%4 == 0)
		var want bytes.Buffer
		if err := json.NewEncoder(&want).Encode(&m); err != nil {
			t.Fatal(err)
		}
		got, err := AppendMessage(nil, &m)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("AppendMessage:\n got %s\nwant %s", got, want.Bytes())
		}
	}
	for _, m := range []*Message{{Type: MsgDone}, {Type: MsgHello, Timer: &TimerCalibration{}}, {Type: MsgIteration, Iteration: &Iteration{}}} {
		want, _ := json.Marshal(m)
		got, _ := AppendMessage(nil, m)
		if string(got) != string(want)+"\n" {
			t.Errorf("AppendMessage(%+v) = %s, want %s", m, got, want)
		}
	}
}

func TestAppendMessageRefusesNaN(t *testing.T) {
	for _, m := range []*Message{
		{Type: MsgDone, Metrics: map[string]float64{"x": math.NaN()}},
		{Type: MsgIteration, Iteration: &Iteration{TimeNs: math.Inf(1)}},
	} {
		if _, err := AppendMessage(nil, m); err == nil || !strings.Contains(err.Error(), "unsupported value") {
			t.Errorf("AppendMessage(%+v): error %v, want unsupported value", m, err)
		}
	}
}

var tricky = []string{"", "a", "ns/op", "\"q\"\\", "<&>", "\x00\x1f\n\r\t", "é✓", "\u2028\u2029", "bad\xff\xfeutf8", "\xe2\x82"}

// fillRandom sets v to a random value; with sparse, about half the optional
// parts stay empty, so omitempty is exercised both ways.
func fillRandom(r *rand.Rand, v reflect.Value, sparse bool) {
	if sparse && r.IntN(2) == 0 && v.Kind() != reflect.Struct {
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(tricky[r.IntN(len(tricky))] + tricky[r.IntN(len(tricky))])
	case reflect.Bool:
		v.SetBool(r.IntN(2) == 0)
	case reflect.Int, reflect.Int64:
		v.SetInt(r.Int64N(1<<40) - 1<<39)
	case reflect.Uint64:
		v.SetUint(r.Uint64())
	case reflect.Float64:
		exp := r.IntN(60) - 30
		f := r.NormFloat64() * math.Pow(10, float64(exp))
		if r.IntN(5) == 0 {
			f = math.Trunc(f)
		}
		v.SetFloat(f)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fillRandom(r, v.Elem(), sparse)
	case reflect.Struct:
		for i := range v.NumField() {
			fillRandom(r, v.Field(i), sparse)
		}
	case reflect.Slice:
		n := 1 + r.IntN(4)
		v.Set(reflect.MakeSlice(v.Type(), n, n))
		for i := range n {
			fillRandom(r, v.Index(i), false)
		}
	case reflect.Array:
		for i := range v.Len() {
			fillRandom(r, v.Index(i), false)
		}
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
		for range 1 + r.IntN(4) {
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			fillRandom(r, k, false)
			fillRandom(r, e, false)
			v.SetMapIndex(k, e)
		}
	default:
		panic("fill: no rule for " + v.Type().String() + ": add one, and the field to AppendMessage")
	}
}
