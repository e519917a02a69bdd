//go:build benchspec_e2e

package main

const tag = 2
