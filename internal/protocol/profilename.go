package protocol

import (
	"hash/fnv"
	"path/filepath"
	"strconv"
)

// ProfileFile is where a fork writes the pprof profile of kind (cpu,
// heap, mutex, block) for the run with key, in dir:
// <run key>-<hash>.fork<N>.<kind>.pprof. The run key is made safe for a
// file name (characters other than A-Z a-z 0-9 . _ = - become _, and a
// long key is cut), which maps several keys to one name — params a/b,
// a_b and a:b all become a_b — so a hash of the key as it is follows
// it: two runs get one name only if their hashes collide, which the
// parent checks before the batch (cli's run: ProfileBase per run key).
func ProfileFile(dir, key string, fork int, kind string) string {
	return filepath.Join(dir, ProfileBase(key)+".fork"+strconv.Itoa(fork)+"."+kind+".pprof")
}

// maxProfileKey bounds the run key's part of a profile's file name, so
// that the name stays within a file system's 255 bytes.
const maxProfileKey = 160

// ProfileBase is the part of a profile's file name that names the run:
// the run key made safe, and a hash of the key.
func ProfileBase(key string) string {
	b := make([]byte, 0, min(len(key), maxProfileKey)+17)
	for i := 0; i < len(key) && len(b) < maxProfileKey; i++ {
		c := key[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '.', c == '=', c == '-':
			b = append(b, c)
		case len(b) == 0 || b[len(b)-1] != '_':
			b = append(b, '_') // a run of unsafe characters is one _
		}
	}
	h := fnv.New64a()
	h.Write([]byte(key))
	b = append(b, '-')
	return string(strconv.AppendUint(b, h.Sum64(), 36))
}
