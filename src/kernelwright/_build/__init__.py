"""Build machinery: the ahead-of-time build, the JIT fallback, and the on-disk cache."""
