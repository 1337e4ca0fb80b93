package main

import "github.com/loophook/loophook/hook"

// shown names a file for a person (hook.Shown).
var shown = hook.Shown
