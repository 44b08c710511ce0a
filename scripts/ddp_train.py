"""Trains one small model twice under DistributedDataParallel, once built on kernelwright ops
and once on the torch ops they replace, from the same weights and data, and checks that the
losses and the final weights agree.

    torchrun --standalone --nproc_per_node=2 scripts/ddp_train.py
"""

import os
import sys

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F

import kernelwright.ops as K


class TorchOps:
    elu = staticmethod(F.elu)
    sigmoid = staticmethod(torch.sigmoid)
    square = staticmethod(torch.square)
    mul = staticmethod(torch.mul)
    add = staticmethod(torch.add)
    logsumexp = staticmethod(torch.logsumexp)


class Net(nn.Module):
    def __init__(self, ops):
        super().__init__()
        self.ops = ops
        self.fc1, self.fc2, self.fc3 = nn.Linear(64, 256), nn.Linear(256, 256), nn.Linear(256, 10)

    def forward(self, x):
        o = self.ops
        h = o.elu(self.fc1(x), 0.5)
        gate = o.sigmoid(self.fc2(h))
        h = o.add(o.mul(h, gate), o.square(h), alpha=0.05)
        logits = self.fc3(h)
        return logits - o.logsumexp(logits, 1, keepdim=True)  # log-softmax


def train(ops, state, rank, steps):
    model = Net(ops).cuda()
    model.load_state_dict(state)
    ddp = nn.parallel.DistributedDataParallel(model, device_ids=[rank])
    opt = torch.optim.SGD(ddp.parameters(), lr=0.05)
    gen = torch.Generator(device="cuda").manual_seed(1000 + rank)  # each rank its own shard
    losses = []
    for _ in range(steps):
        x = torch.randn(128, 64, device="cuda", generator=gen)
        y = torch.randint(0, 10, (128,), device="cuda", generator=gen)
        loss = F.nll_loss(ddp(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        reduced = loss.detach().clone()
        dist.all_reduce(reduced)
        losses.append(reduced.item() / dist.get_world_size())
    return losses, {k: v.detach().clone() for k, v in model.state_dict().items()}


def main():
    dist.init_process_group("nccl")
    rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(rank)
    torch.manual_seed(0)
    state = Net(TorchOps).state_dict()
    steps = 30
    ours, ours_w = train(K, state, rank, steps)
    ref, ref_w = train(TorchOps, state, rank, steps)
    loss_diff = max(abs(a - b) / abs(b) for a, b in zip(ours, ref))
    weight_diff = max((ours_w[k] - ref_w[k]).abs().max().item() for k in ref_w)
    ok = loss_diff < 1e-4 and weight_diff < 1e-4 and ours[-1] < ours[0]
    if rank == 0:
        print("world size %d, %d steps" % (dist.get_world_size(), steps))
        print("loss kernelwright %.6f -> %.6f, torch %.6f -> %.6f" % (ours[0], ours[-1], ref[0], ref[-1]))
        print("max relative loss difference %.2e, max weight difference %.2e: %s"
              % (loss_diff, weight_diff, "MATCH" if ok else "MISMATCH"))
    dist.destroy_process_group()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
