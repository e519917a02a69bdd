package protocol

import (
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"
	"unicode/utf8"
)

// DecodeAssignment reads the assignment the parent wrote with
// encoding/json (json.Marshal of an Assignment) into a. It is what a fork
// runs first: encoding/json would build its decoders for Assignment and
// every type inside it by reflection, and spec.Settings decodes itself
// field by field through encoding/json again, which cost each fresh
// process most of a millisecond before its hello. This reader parses the
// JSON once and fills the structs by their json keys (the field name
// where there is no tag), durations from Go duration strings as
// spec.Settings writes them. TestDecodeAssignmentMatchesEncodingJSON
// checks it against encoding/json on randomly filled assignments.
func DecodeAssignment(data []byte, a *Assignment) error {
	p := parser{s: data}
	v, err := p.value()
	if err != nil {
		return err
	}
	p.space()
	if p.i != len(p.s) {
		return p.errorf("data after the top-level value")
	}
	return fill(reflect.ValueOf(a).Elem(), v, "assignment")
}

// durationType is a function, not a variable: a variable would be set
// by package initialisation, which every fork runs.
func durationType() reflect.Type { return reflect.TypeFor[time.Duration]() }

// fill sets v from the parsed JSON value j, as encoding/json would into
// v's type (absent keys and nulls leave a field as it was).
func fill(v reflect.Value, j any, path string) error {
	if j == nil {
		return nil
	}
	bad := func() error { return fmt.Errorf("%s: cannot read %T into %s", path, j, v.Type()) }
	if v.Type() == durationType() {
		switch x := j.(type) {
		case string:
			d, err := time.ParseDuration(x)
			if err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
			v.SetInt(int64(d))
			return nil
		case number:
			n, err := strconv.ParseInt(string(x), 10, 64)
			if err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
			v.SetInt(n)
			return nil
		}
		return bad()
	}
	switch v.Kind() {
	case reflect.String:
		s, ok := j.(string)
		if !ok {
			return bad()
		}
		v.SetString(s)
	case reflect.Bool:
		b, ok := j.(bool)
		if !ok {
			return bad()
		}
		v.SetBool(b)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, ok := j.(number)
		if !ok {
			return bad()
		}
		i, err := strconv.ParseInt(string(n), 10, 64)
		if err != nil || v.OverflowInt(i) {
			return fmt.Errorf("%s: %s is not a %s", path, n, v.Type())
		}
		v.SetInt(i)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n, ok := j.(number)
		if !ok {
			return bad()
		}
		u, err := strconv.ParseUint(string(n), 10, 64)
		if err != nil || v.OverflowUint(u) {
			return fmt.Errorf("%s: %s is not a %s", path, n, v.Type())
		}
		v.SetUint(u)
	case reflect.Float32, reflect.Float64:
		n, ok := j.(number)
		if !ok {
			return bad()
		}
		f, err := strconv.ParseFloat(string(n), v.Type().Bits())
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		v.SetFloat(f)
	case reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		return fill(v.Elem(), j, path)
	case reflect.Slice:
		arr, ok := j.([]any)
		if !ok {
			return bad()
		}
		s := reflect.MakeSlice(v.Type(), len(arr), len(arr))
		for i, e := range arr {
			if err := fill(s.Index(i), e, path+"["+strconv.Itoa(i)+"]"); err != nil {
				return err
			}
		}
		v.Set(s)
	case reflect.Array:
		arr, ok := j.([]any)
		if !ok {
			return bad()
		}
		for i := range v.Len() {
			if i < len(arr) {
				if err := fill(v.Index(i), arr[i], path+"["+strconv.Itoa(i)+"]"); err != nil {
					return err
				}
			}
		}
	case reflect.Map:
		obj, ok := j.(*object)
		if !ok || v.Type().Key().Kind() != reflect.String {
			return bad()
		}
		if v.IsNil() {
			v.Set(reflect.MakeMapWithSize(v.Type(), len(obj.keys)))
		}
		for i, k := range obj.keys {
			e := reflect.New(v.Type().Elem()).Elem()
			if err := fill(e, obj.vals[i], path+"."+k); err != nil {
				return err
			}
			v.SetMapIndex(reflect.ValueOf(k).Convert(v.Type().Key()), e)
		}
	case reflect.Struct:
		obj, ok := j.(*object)
		if !ok {
			return bad()
		}
		t := v.Type()
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() || f.Anonymous {
				continue
			}
			name := f.Name
			if tag, ok := f.Tag.Lookup("json"); ok {
				if tag == "-" {
					continue
				}
				if n, _, _ := strings.Cut(tag, ","); n != "" {
					name = n
				}
			}
			if e, ok := obj.get(name); ok {
				if err := fill(v.Field(i), e, path+"."+name); err != nil {
					return err
				}
			}
		}
	default:
		return bad()
	}
	return nil
}

// number is a JSON number as written.
type number string

// object is a JSON object, its keys in order.
type object struct {
	keys []string
	vals []any
}

func (o *object) get(k string) (any, bool) {
	for i, key := range o.keys {
		if key == k {
			return o.vals[i], true
		}
	}
	return nil, false
}

type parser struct {
	s []byte
	i int
}

func (p *parser) errorf(format string, args ...any) error {
	return fmt.Errorf("assignment: offset %d: %s", p.i, fmt.Sprintf(format, args...))
}

func (p *parser) space() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t' || p.s[p.i] == '\n' || p.s[p.i] == '\r') {
		p.i++
	}
}

func (p *parser) value() (any, error) {
	p.space()
	if p.i >= len(p.s) {
		return nil, p.errorf("unexpected end")
	}
	switch c := p.s[p.i]; {
	case c == '{':
		p.i++
		o := &object{}
		p.space()
		if p.i < len(p.s) && p.s[p.i] == '}' {
			p.i++
			return o, nil
		}
		for {
			p.space()
			if p.i >= len(p.s) || p.s[p.i] != '"' {
				return nil, p.errorf("expected a key")
			}
			k, err := p.str()
			if err != nil {
				return nil, err
			}
			p.space()
			if p.i >= len(p.s) || p.s[p.i] != ':' {
				return nil, p.errorf("expected ':'")
			}
			p.i++
			v, err := p.value()
			if err != nil {
				return nil, err
			}
			o.keys, o.vals = append(o.keys, k), append(o.vals, v)
			p.space()
			if p.i < len(p.s) && p.s[p.i] == ',' {
				p.i++
				continue
			}
			if p.i < len(p.s) && p.s[p.i] == '}' {
				p.i++
				return o, nil
			}
			return nil, p.errorf("expected ',' or '}'")
		}
	case c == '[':
		p.i++
		arr := []any{}
		p.space()
		if p.i < len(p.s) && p.s[p.i] == ']' {
			p.i++
			return arr, nil
		}
		for {
			v, err := p.value()
			if err != nil {
				return nil, err
			}
			arr = append(arr, v)
			p.space()
			if p.i < len(p.s) && p.s[p.i] == ',' {
				p.i++
				continue
			}
			if p.i < len(p.s) && p.s[p.i] == ']' {
				p.i++
				return arr, nil
			}
			return nil, p.errorf("expected ',' or ']'")
		}
	case c == '"':
		return p.str()
	case c == '-' || '0' <= c && c <= '9':
		start := p.i
		for p.i < len(p.s) && strings.IndexByte("+-.eE0123456789", p.s[p.i]) >= 0 {
			p.i++
		}
		n := string(p.s[start:p.i])
		if _, err := strconv.ParseFloat(n, 64); err != nil && !errors.Is(err, strconv.ErrRange) {
			return nil, p.errorf("invalid number %q", n)
		}
		return number(n), nil
	default:
		for _, lit := range []struct {
			word string
			v    any
		}{{"true", true}, {"false", false}, {"null", nil}} {
			if strings.HasPrefix(string(p.s[p.i:min(len(p.s), p.i+5)]), lit.word) {
				p.i += len(lit.word)
				return lit.v, nil
			}
		}
		return nil, p.errorf("unexpected %q", c)
	}
}

// str reads a JSON string at p.i (the opening quote).
func (p *parser) str() (string, error) {
	p.i++
	var b []byte
	start := p.i
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == '"':
			if b == nil {
				s := string(p.s[start:p.i])
				p.i++
				return s, nil
			}
			b = append(b, p.s[start:p.i]...)
			p.i++
			return string(b), nil
		case c == '\\':
			b = append(b, p.s[start:p.i]...)
			if p.i+1 >= len(p.s) {
				return "", p.errorf("unterminated string")
			}
			p.i++
			switch e := p.s[p.i]; e {
			case '"', '\\', '/':
				b = append(b, e)
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				r, ok := p.hex4(p.i + 1)
				if !ok {
					return "", p.errorf("invalid \\u escape")
				}
				p.i += 4
				if utf16.IsSurrogate(r) {
					if r2, ok := p.hex4(p.i + 3); ok && p.s[p.i+1] == '\\' && p.s[p.i+2] == 'u' {
						if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
							r = d
							p.i += 6
						} else {
							r = utf8.RuneError
						}
					} else {
						r = utf8.RuneError
					}
				}
				b = utf8.AppendRune(b, r)
			default:
				return "", p.errorf("invalid escape \\%c", e)
			}
			p.i++
			start = p.i
		case c < 0x20:
			return "", p.errorf("control character in string")
		default:
			p.i++
		}
	}
	return "", p.errorf("unterminated string")
}

// hex4 reads the four hex digits at i.
func (p *parser) hex4(i int) (rune, bool) {
	if i+4 > len(p.s) {
		return 0, false
	}
	n, err := strconv.ParseUint(string(p.s[i:i+4]), 16, 32)
	return rune(n), err == nil
}
