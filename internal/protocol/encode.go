package protocol

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/benchspec/benchspec/internal/protocol/hist"
)

// AppendMessage appends m as one line of JSON, as encoding/json's Encoder
// writes it (the same fields and omissions; the parent decodes it with
// encoding/json). It is what a fork sends: encoding/json would first
// build its encoders for Message and every type inside it by reflection,
// which costs each fresh process a few hundred microseconds before its
// hello. A NaN or infinite number is an error, as with encoding/json.
// TestAppendMessageMatchesEncodingJSON fails when a field is added to
// one of the types without being added here.
func AppendMessage(b []byte, m *Message) ([]byte, error) {
	e := encoder{b: b}
	e.b = append(e.b, `{"type":`...)
	e.str(m.Type)
	if m.PID != 0 {
		e.b = append(e.b, `,"pid":`...)
		e.b = strconv.AppendInt(e.b, int64(m.PID), 10)
	}
	if t := m.Timer; t != nil {
		e.b = append(e.b, `,"timer":{"resolution_ns":`...)
		e.num(t.ResolutionNs)
		e.b = append(e.b, `,"overhead_ns":`...)
		e.num(t.OverheadNs)
		if len(t.BaselineNs) > 0 {
			e.b = append(e.b, `,"baseline_ns":`...)
			e.nums(t.BaselineNs)
		}
		if len(t.BaselineInvocationsNs) > 0 {
			e.b = append(e.b, `,"baseline_invocations_ns":`...)
			e.nums(t.BaselineInvocationsNs)
		}
		e.b = append(e.b, '}')
	}
	if m.Duet {
		e.b = append(e.b, `,"duet":true`...)
	}
	if it := m.Iteration; it != nil {
		e.b = append(e.b, `,"iteration":{"phase":`...)
		e.str(it.Phase)
		e.b = append(e.b, `,"index":`...)
		e.b = strconv.AppendInt(e.b, int64(it.Index), 10)
		e.b = append(e.b, `,"ops":`...)
		e.num(it.Ops)
		e.b = append(e.b, `,"time_ns":`...)
		e.num(it.TimeNs)
		e.b = append(e.b, `,"invocations":`...)
		e.b = strconv.AppendUint(e.b, it.Invocations, 10)
		if it.Histogram != nil {
			e.b = append(e.b, `,"histogram":`...)
			e.snapshot(it.Histogram)
		}
		if len(it.Metrics) > 0 {
			e.b = append(e.b, `,"metrics":`...)
			e.floatMap(it.Metrics)
		}
		if len(it.Windows) > 0 {
			e.b = append(e.b, `,"windows":[`...)
			for i, w := range it.Windows {
				if i > 0 {
					e.b = append(e.b, ',')
				}
				e.b = append(e.b, '[')
				e.b = strconv.AppendInt(e.b, w[0], 10)
				e.b = append(e.b, ',')
				e.b = strconv.AppendInt(e.b, w[1], 10)
				e.b = append(e.b, ']')
			}
			e.b = append(e.b, ']')
		}
		if it.NoTime {
			e.b = append(e.b, `,"no_time":true`...)
		}
		e.b = append(e.b, '}')
	}
	if len(m.Metrics) > 0 {
		e.b = append(e.b, `,"metrics":`...)
		e.floatMap(m.Metrics)
	}
	if len(m.Profiles) > 0 {
		e.b = append(e.b, `,"profiles":{`...)
		for i, k := range sortedKeys(m.Profiles) {
			if i > 0 {
				e.b = append(e.b, ',')
			}
			e.str(k)
			e.b = append(e.b, ':')
			e.str(m.Profiles[k])
		}
		e.b = append(e.b, '}')
	}
	if m.Error != "" {
		e.b = append(e.b, `,"error":`...)
		e.str(m.Error)
	}
	if m.Skip != "" {
		e.b = append(e.b, `,"skip":`...)
		e.str(m.Skip)
	}
	e.b = append(e.b, "}\n"...)
	return e.b, e.err
}

type encoder struct {
	b   []byte
	err error
}

func (e *encoder) snapshot(s *hist.Snapshot) {
	e.b = append(e.b, `{"count":`...)
	e.b = strconv.AppendUint(e.b, s.Count, 10)
	e.b = append(e.b, `,"sum":`...)
	e.num(s.Sum)
	e.b = append(e.b, `,"min":`...)
	e.num(s.Min)
	e.b = append(e.b, `,"max":`...)
	e.num(s.Max)
	e.b = append(e.b, `,"bins":`...)
	if s.Bins == nil {
		e.b = append(e.b, "null"...)
	} else {
		e.b = append(e.b, '[')
		for i, bin := range s.Bins {
			if i > 0 {
				e.b = append(e.b, ',')
			}
			e.b = append(e.b, `{"value":`...)
			e.num(bin.Value)
			e.b = append(e.b, `,"count":`...)
			e.b = strconv.AppendUint(e.b, bin.Count, 10)
			e.b = append(e.b, '}')
		}
		e.b = append(e.b, ']')
	}
	e.b = append(e.b, '}')
}

func (e *encoder) floatMap(m map[string]float64) {
	e.b = append(e.b, '{')
	for i, k := range sortedKeys(m) {
		if i > 0 {
			e.b = append(e.b, ',')
		}
		e.str(k)
		e.b = append(e.b, ':')
		e.num(m[k])
	}
	e.b = append(e.b, '}')
}

func (e *encoder) nums(xs []float64) {
	e.b = append(e.b, '[')
	for i, x := range xs {
		if i > 0 {
			e.b = append(e.b, ',')
		}
		e.num(x)
	}
	e.b = append(e.b, ']')
}

// num writes f as encoding/json does: the shortest representation that
// reads back as f, in exponent form only for very small or large values.
func (e *encoder) num(f float64) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		if e.err == nil {
			e.err = fmt.Errorf("json: unsupported value: %s", strconv.FormatFloat(f, 'g', -1, 64))
		}
		e.b = append(e.b, '0')
		return
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	start := len(e.b)
	e.b = strconv.AppendFloat(e.b, f, format, -1, 64)
	if format == 'e' {
		// 1e-07 -> 1e-7, as encoding/json writes it.
		if n := len(e.b) - start; n >= 4 && e.b[len(e.b)-4] == 'e' && e.b[len(e.b)-3] == '-' && e.b[len(e.b)-2] == '0' {
			e.b[len(e.b)-2] = e.b[len(e.b)-1]
			e.b = e.b[:len(e.b)-1]
		}
	}
}

// str writes s as a JSON string; invalid UTF-8 becomes U+FFFD, as with
// encoding/json.
func (e *encoder) str(s string) {
	const hex = "0123456789abcdef"
	e.b = append(e.b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				e.b = append(e.b, '\\', c)
			case c == '\n':
				e.b = append(e.b, '\\', 'n')
			case c == '\r':
				e.b = append(e.b, '\\', 'r')
			case c == '\t':
				e.b = append(e.b, '\\', 't')
			case c < 0x20 || c == '<' || c == '>' || c == '&':
				e.b = append(e.b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			default:
				e.b = append(e.b, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			e.b = append(e.b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			e.b = append(e.b, '\\', 'u', '2', '0', '2', hex[r&0xf])
		default:
			e.b = append(e.b, s[i:i+size]...)
		}
		i += size
	}
	e.b = append(e.b, '"')
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
