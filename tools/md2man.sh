#!/bin/sh
# md2man.sh NAME SECTION TITLE < doc.md > NAME.SECTION
# Turns the project's Markdown documents into man pages: "# X" and "## X"
# headings become .SH and .SS, indented blocks are set as they are (.nf),
# list items become .IP, `code` becomes bold, everything else fills as
# paragraphs.  Only the subset of Markdown the docs use.
name=$1 section=$2 title=$3
printf '.TH %s %s "" "vmsim" "%s"\n' "$(echo "$name" | tr a-z A-Z)" "$section" "$title"
awk -v name="$name" -v title="$title" '
function esc(s) {
	gsub(/\\/, "\\e", s)
	gsub(/^\./, "\\\\\\&.", s)
	gsub(/^'\''/, "\\\\\\&'\''", s)
	return s
}
function inline(s,   out, i, c, incode) {
	s = esc(s)
	out = ""; incode = 0
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (c == "`") { out = out (incode ? "\\fR" : "\\fB"); incode = !incode; continue }
		out = out c
	}
	if (incode) out = out "\\fR"
	gsub(/\*\*/, "", out)
	return out
}
BEGIN { first = 1; pre = 0 }
/^# / {
	if (pre) { print ".fi"; pre = 0 }
	h = substr($0, 3)
	if (first) { print ".SH NAME"; print name " \\- " title; print ".SH DESCRIPTION"; first = 0; next }
	print ".SH " toupper(inline(h)); next
}
/^## / { if (pre) { print ".fi"; pre = 0 } print ".SS " inline(substr($0, 4)); next }
/^### / { if (pre) { print ".fi"; pre = 0 } print ".SS " inline(substr($0, 5)); next }
/^    / {
	if (!pre) { print ".PP"; print ".nf"; print ".RS 4"; pre = 1 }
	print esc(substr($0, 5)); next
}
/^  [^ ]/ { if (pre) { print ".RE"; print ".fi"; pre = 0 } sub(/^ +/, ""); print inline($0); next }
/^$/ { if (pre) { print ".RE"; print ".fi"; pre = 0 } else print ".PP"; next }
/^- / { if (pre) { print ".RE"; print ".fi"; pre = 0 } print ".IP \\(bu 2"; print inline(substr($0, 3)); next }
/^\|/ { print inline($0); print ".br"; next }
{ if (pre) { print ".RE"; print ".fi"; pre = 0 } print inline($0) }
END { if (pre) { print ".RE"; print ".fi" } }
'
