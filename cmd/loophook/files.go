package main

import "github.com/loophook/loophook/internal/file"

// shown names a file for a person (file.Shown).
var shown = file.Shown
