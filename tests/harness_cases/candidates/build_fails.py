"""The inline extension does not build (the compiler rejects its flags at once, so the
test does not wait for a full compile of the torch headers)."""
from torch.utils.cpp_extension import load_inline

ext = load_inline(
    name="kw_test_build_fails",
    cpp_sources="torch::Tensor f(torch::Tensor x) { return x * undefined_symbol; }",
    functions=["f"],
    extra_cflags=["--no-such-compiler-flag"],
)
