# Prints public declarations (and requirements of public protocols) that have no ///
# doc comment above them; attribute lines (one attribute or several) between the comment
# and the declaration are allowed.
FNR == 1 { documented = 0; inblock = 0; inprotocol = 0 }
/^[[:space:]]*\/\/\// { documented = 1; next }
/^[[:space:]]*\/\*\*/ { inblock = 1 }
inblock { if ($0 ~ /\*\//) { inblock = 0; documented = 1 }; next }
/^[[:space:]]*(@[A-Za-z_]+(\(.*\))?[[:space:]]*)+$/ { next }
/^[[:space:]]*$/ { documented = 0; next }
{
  line = $0
  sub(/^[[:space:]]*(@[A-Za-z_]+(\([^)]*\))?[[:space:]]+)*/, "", line)
  public = line ~ /^(public|open)[[:space:]]/ && line !~ /^public[[:space:]]+import/ && line !~ /^(public|open)[[:space:]]+extension/
  requirement = inprotocol && $0 ~ /^    (associatedtype|static func|func|var|init|mutating func|subscript)[[:space:]]/
  if ((public || requirement) && !documented) printf "%s:%d: %s\n", FILENAME, FNR, line
  if (line ~ /^public[[:space:]]+protocol[[:space:]]/ && line ~ /\{[[:space:]]*$/) inprotocol = 1
  if ($0 ~ /^}/) inprotocol = 0
  documented = 0
}
