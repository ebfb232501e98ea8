"""The embedded simulator: GL renderer, scene loading, navigability grid and habitat-lab registration."""
