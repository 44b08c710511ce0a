"""The flags a verdict can carry, and what each means.  Read by the workers that raise them
and by the parent that turns them into a verdict, so nothing here imports torch."""

# Flags that make the verdict "fail"; the others are reported but do not fail.
FATAL_FLAGS = {
    "input_mutated": "the candidate wrote to its inputs (the reference does not)",
    "output_aliases_input": "an output shares memory with an input (the reference's does not)",
    "stale_output": "a re-checked timed call returned a wrong result (outputs cached or reused)",
    "recycled_output": "the output was never written: it matched only when the reference's freed result was in memory",
    "output_changed_after_return": "the output kept changing after forward() returned (unsynchronised background work)",
    "tensor_subclass_output": "forward() returned a torch.Tensor subclass the reference does not (it can defer its work past the timing)",
    "escaped_timed_stream": "device-synchronised wall time far exceeds the CUDA-event time (work outside the timed stream)",
    "tampered_harness": "torch, time or harness functions were replaced",
    "changed_global_settings": "global torch settings that change the reference's speed or precision were changed",
    "adversarial_inputs_failed": "correct on get_inputs() draws, wrong on adversarial variants of them",
    "gpu_side_process": "a process the candidate started held the GPU while timing (it can load the device while the reference runs)",
    "detached_process": "a process the candidate started left the worker's process group (a session of its own): out of the harness's reach, as a noisy neighbour is",
    "reduced_precision": "error against float64 is above what the requested float32 matmul precision allows (lower precision inside)",
    "exceeds_error_ratio": "error against float64 is above the multiple of the reference error given as max_error_ratio",
}
INFO_FLAGS = {
    "no_custom_kernels": "no kernel built by the candidate ran: all time was in library kernels",
    "background_thread": "the candidate left Python threads running",
    "host_bound": "a side's host work per call exceeds its device time: its cost, and so the headline speedup, follows the host's speed (which differs between processes)",
    "child_process": "processes the candidate started were still running after timing (killed when the worker ends)",
}
