"""Runtime side of jitlint: count real JAX compiles.  Never imported by static linting."""
