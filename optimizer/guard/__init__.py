"""The mutator's scope guard: everything outside the artifact must look exactly as before the mutation."""
