//go:build !unix

package hook

const openNonblock = 0
