//go:build tools

// Package ferretdb pins the FerretDB server build used by the dev stack and
// integration tests (see tools/infra/ferretdb.ts). It is never compiled itself.
package ferretdb

import _ "github.com/FerretDB/FerretDB/cmd/ferretdb"
