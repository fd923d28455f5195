"""Which accelerators the customer can use: their software's stacks and their choice of makers.

Every accelerator runs one software stack (``AcceleratorSpec.software``): NVIDIA's CUDA, AMD's
ROCm or Intel's Gaudi software.  A framework the customer trains with runs on some of them
(:data:`FRAMEWORK_STACKS`, sources below); custom CUDA kernels run on CUDA only.  A framework
not in the table restricts nothing.  The customer may also allow only some makers
(``hardware.vendors``).  An accelerator either is allowed or is excluded with a plain reason.

References
----------
.. [1] PyTorch, TensorFlow, JAX on ROCm: ROCm 7.1.0 documentation, "Deep learning frameworks"
       (PyTorch, TensorFlow and JAX compatibility pages), 2025.
.. [2] Megatron-LM on ROCm: ROCm documentation, "Training a model with Primus and Megatron-LM"
       (rocm/primus images, MI300X/MI325X/MI350X/MI355X); on Gaudi: Intel's fork
       HabanaAI/Megatron-LM (Intel Transformer Engine extension).
.. [3] FlashAttention: Dao-AILab/flash-attention README, "AMD ROCm Support" (FlashAttention-2
       on MI200/MI300 through composable_kernel); no Gaudi build (Gaudi has its own fused SDPA).
.. [4] Triton: triton-lang/triton README, "Compatibility": NVIDIA GPUs (compute capability
       8.0+) and AMD GPUs (ROCm 6.2+).
.. [5] DeepSpeed README: "A CUDA or ROCm compiler" and "Contributed HW support": Intel Gaudi 2
       (hpu), upstream validated.
.. [6] Intel Gaudi software Support Matrix v1.15.0: PyTorch, DeepSpeed (fork), Megatron-DeepSpeed
       (fork), Optimum Habana with Transformers; TensorFlow last listed in v1.14.0; no JAX.
.. [7] Hugging Face on Gaudi: Optimum for Intel Gaudi documentation; on ROCm: ROCm
       documentation, "Run models from Hugging Face".
.. [8] Apex on ROCm: AMD's fork ROCm/apex, shipped in the ROCm PyTorch images.
.. [9] NVIDIA NeMo README: built on NVIDIA Transformer Engine and Megatron Core, distributed as
       NVIDIA containers; no ROCm or Gaudi build is documented (engine reading, not a vendor
       statement).  TensorRT and CUDA code are NVIDIA's.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType

from .hardware import ACCELERATORS, AcceleratorSpec
from .vocabulary import STACK_WORDS, value_words

CUDA, ROCM, GAUDI = "cuda", "rocm", "gaudi"
STACKS = (CUDA, ROCM, GAUDI)
CUSTOM_CUDA_KERNELS = "custom CUDA kernels"  # how a blocking custom kernel is named
ANY_VENDOR = "any"  # recorded when the customer allows every maker

_EVERYWHERE = STACKS
_NVIDIA_AMD = (CUDA, ROCM)
_NVIDIA = (CUDA,)

# Framework answer (lower case, as validation stores it) -> stacks it runs on [1]_-[9]_.
FRAMEWORK_STACKS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "pytorch": _EVERYWHERE,
        "huggingface": _EVERYWHERE,
        "deepspeed": _EVERYWHERE,
        "megatron": _EVERYWHERE,
        "megatron-lm": _EVERYWHERE,
        "jax": _NVIDIA_AMD,
        "tensorflow": _NVIDIA_AMD,
        "flash-attn": _NVIDIA_AMD,
        "flashattention": _NVIDIA_AMD,
        "triton": _NVIDIA_AMD,
        "apex": _NVIDIA_AMD,
        "nemo": _NVIDIA,
        "tensorrt": _NVIDIA,
        "cuda": _NVIDIA,
    }
)

# Makers, as ``hardware.vendors`` names them, in the order the engine prefers a default.
VENDORS: tuple[str, ...] = tuple(dict.fromkeys(acc.vendor.lower() for acc in ACCELERATORS.values()))


def vendor_of(acc: AcceleratorSpec) -> str:
    """The maker of ``acc`` as ``hardware.vendors`` names it ("nvidia", "amd", "intel")."""
    return acc.vendor.lower()


def blockers(frameworks: Iterable[str], custom_cuda_kernels: bool, stack: str) -> tuple[str, ...]:
    """The customer's software that does not run on ``stack``, in plain names."""
    out = [
        value_words("software.frameworks", name)
        for name in frameworks
        if stack not in FRAMEWORK_STACKS.get(name, STACKS)
    ]
    if custom_cuda_kernels and stack != CUDA:
        out.append(CUSTOM_CUDA_KERNELS)
    return tuple(dict.fromkeys(out))


def software_stacks(frameworks: Iterable[str], custom_cuda_kernels: bool) -> tuple[str, ...]:
    """The stacks on which every framework and kernel of the customer runs."""
    names = tuple(frameworks)
    return tuple(s for s in STACKS if not blockers(names, custom_cuda_kernels, s))


def exclusion(
    acc: AcceleratorSpec,
    *,
    vendors: tuple[str, ...],
    frameworks: tuple[str, ...],
    custom_cuda_kernels: bool,
) -> str | None:
    """Why ``acc`` cannot be used, in plain words; ``None`` when it can."""
    if vendor_of(acc) not in vendors:
        return f"made by {acc.vendor}; you asked for {vendor_words(vendors)} accelerators only"
    blocked = blockers(frameworks, custom_cuda_kernels, acc.software)
    if blocked:
        verb = "does" if blocked[0] != CUSTOM_CUDA_KERNELS and len(blocked) == 1 else "do"
        return f"{_and(blocked)} {verb} not run on {STACK_WORDS[acc.software]}"
    return None


def limits(
    *, vendors: tuple[str, ...], frameworks: tuple[str, ...], custom_cuda_kernels: bool
) -> tuple[str, ...]:
    """What narrows the choice of accelerators, in plain sentences (none when nothing does)."""
    out = []
    if set(vendors) != set(VENDORS):
        out.append(f"you asked for {vendor_words(vendors)} accelerators only")
    stacks = software_stacks(frameworks, custom_cuda_kernels)
    if set(stacks) != set(STACKS):
        blocked = [
            b
            for s in STACKS
            if s not in stacks
            for b in blockers(frameworks, custom_cuda_kernels, s)
        ]
        makers = [vendor_of(a) for a in ACCELERATORS.values() if a.software in stacks]
        out.append(
            f"your software ({_and(dict.fromkeys(blocked))}) runs only on "
            f"{vendor_words(dict.fromkeys(makers))} accelerators"
        )
    return tuple(out)


def vendor_words(vendors: Iterable[str]) -> str:
    """Makers as people write them: ("nvidia", "amd") -> "NVIDIA or AMD"."""
    return _and((value_words("hardware.vendors", v) for v in vendors), word="or")


def _and(items: Iterable[str], *, word: str = "and") -> str:
    names = list(items)
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} {word} {names[-1]}"
