// ELU and its gradient, fp32. Bound from Python by examples/elu.py.

__global__ void elu_kernel(const float* x, float* out, float alpha, int64_t n) {
    int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        out[i] = v > 0.0f ? v : alpha * expm1f(v);
    }
}

// d elu / dx is 1 for x > 0 and alpha * exp(x) = out + alpha otherwise, so the
// backward reads the forward's output instead of recomputing the exponential.
__global__ void elu_backward_kernel(const float* grad, const float* x, const float* out, float* grad_x,
                                    float alpha, int64_t n) {
    int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i < n) grad_x[i] = x[i] > 0.0f ? grad[i] : grad[i] * (out[i] + alpha);
}
