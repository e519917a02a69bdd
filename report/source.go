package report

// Source is code that a batch measured: a Go module and, when it is
// known, the state of its version control. A nightly history names its
// points by it, so that a change can be traced to the commits between
// two revisions.
type Source struct {
	// Module is the module path: the suite binary's main module, or the
	// module of a `package:` entry's package.
	Module string `json:"module"`
	// Package is the import path of a `package:` entry's package; ""
	// for the suite binary itself.
	Package string `json:"package,omitempty"`
	// VCS is the version control system, such as "git"; "" when the
	// revision is not known.
	VCS string `json:"vcs,omitempty"`
	// Revision is the commit the code was built from.
	Revision string `json:"revision,omitempty"`
	// Time is the commit time of Revision, RFC 3339.
	Time string `json:"time,omitempty"`
	// Modified is true when the working tree had uncommitted changes:
	// the code measured is Revision plus those.
	Modified bool `json:"modified,omitempty"`
}

// Revision is how a report names the code it measured: the revision of
// its first source that has one, with "+dirty" when that working tree
// was modified, or "" when no source's revision is known.
func (r *Report) Revision() string {
	for _, s := range r.Sources {
		if s.Revision != "" {
			if s.Modified {
				return s.Revision + "+dirty"
			}
			return s.Revision
		}
	}
	return ""
}
