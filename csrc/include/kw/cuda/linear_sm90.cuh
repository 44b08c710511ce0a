// Hopper GEMM kernels with the linear epilogue, built from CUTLASS 3 collectives.
//
// CUTLASS supplies the TMA + wgmma warp-specialized mainloop; what is ours is the epilogue
// (row scales for split operands, per-column bias, then an activation chosen at run time so one
// instantiation serves them all) and, for the split 'highest' GEMMs, the promotion of
// tensor-core partial sums into fp32 registers: Hopper's tensor cores accumulate with
// truncation, so a K-long accumulation in them loses bits that split operands alone cannot win
// back. The promoting mainloop is CUTLASS's FP8 one, which adds the tensor-core accumulator into
// a second fp32 accumulator every few instructions.
#pragma once

#include <cuda_runtime.h>

#include <utility>

#include "cute/tensor.hpp"
#include "cutlass/cutlass.h"
#include "cutlass/epilogue/collective/collective_builder.hpp"
#include "cutlass/epilogue/fusion/operations.hpp"
#include "cutlass/gemm/collective/collective_builder.hpp"
#include "cutlass/gemm/device/gemm_universal_adapter.h"
#include "cutlass/gemm/dispatch_policy.hpp"
#include "cutlass/gemm/kernel/gemm_universal.hpp"
#include "kw/cuda/epilogue_ops.cuh"
#include "kw/gemm.h"

namespace kw {
namespace cuda {

// The activation as a CUTLASS epilogue compute functor whose kind is a run-time argument.
template <class T>
struct LinearActivation {
  struct Arguments {
    int kind = 0;
  };
  CUTLASS_HOST_DEVICE T operator()(T const& x, Arguments const& args) const {
    switch (static_cast<Activation>(args.kind)) {
      case Activation::kRelu:
        return x < T(0) ? T(0) : x;  // keeps NaN, as torch.relu does
      case Activation::kSigmoid:
        return T(1) / (T(1) + expf(-x));
      case Activation::kGelu:
        return T(0.5) * x * (T(1) + erff(x * T(0.70710678118654752)));
      case Activation::kGeluTanh: {
        const T inner = T(0.79788456080286536) * (x + T(0.044715) * x * x * x);
        return T(0.5) * x * (T(1) + tanhf(inner));
      }
      default:
        return x;
    }
  }
};

template <class T, int N>
struct LinearActivation<cutlass::Array<T, N>> {
  using Arguments = typename LinearActivation<T>::Arguments;
  CUTLASS_HOST_DEVICE cutlass::Array<T, N> operator()(cutlass::Array<T, N> const& x,
                                                      Arguments const& args) const {
    LinearActivation<T> op;
    cutlass::Array<T, N> y;
    CUTLASS_PRAGMA_UNROLL
    for (int i = 0; i < N; ++i) y[i] = op(x[i], args);
    return y;
  }
};

// The epilogue, as a CUTLASS visitor tree: d = act(acc + bias[n]), or for a GEMM on row-scaled
// split operands d = act(acc * a_scale[m] * b_scale[n] + bias[n]), which undoes both scalings
// before the bias, in fp32. Sourced: c, the cross products of the split summed apart (see
// launch_split_gemm), is added to acc before the scales: d = act((acc + c) * a_scale * b_scale
// + bias). Program (not NoProgram): a compiled pointwise program (kw::EpilogueProgram) takes the
// activation's place, reading Program<float>::kColumns vectors along n, kRows along m and kFulls
// full-size operands: the tree holds a node for each operand the program reads and none for the
// others, since each costs loads and a barrier per tile (a full-size one, shared memory too).
// Program<Array<float, N>> is the compute functor, called with the affine result, the operands
// and its Arguments (the program's constants).
template <class T>
struct NoProgram {
  static constexpr int kColumns = 0, kRows = 0, kFulls = 0, kReduce = 0;
};

template <template <class> class Program>
constexpr bool kProgrammed = !cute::is_same_v<Program<float>, NoProgram<float>>;

// The visitor tree of a program's node: Op over the affine result, then Col repeated once for
// each index of ColSeq, Row for each of RowSeq and Full for each of FullSeq.
template <class T, size_t>
struct Repeated {
  using type = T;
};

template <class Op, class Affine, class Col, class Row, class Full, class ColSeq, class RowSeq,
          class FullSeq>
struct ProgramTree;

template <class Op, class Affine, class Col, class Row, class Full, size_t... I, size_t... J,
          size_t... F>
struct ProgramTree<Op, Affine, Col, Row, Full, std::index_sequence<I...>, std::index_sequence<J...>,
                   std::index_sequence<F...>> {
  using type = cutlass::epilogue::fusion::Sm90EVT<Op, Affine, typename Repeated<Col, I>::type...,
                                                  typename Repeated<Row, J>::type...,
                                                  typename Repeated<Full, F>::type...>;
};

// The epilogue schedule of every LinearSm90 kernel.
using LinearEpilogueSchedule = cutlass::epilogue::TmaWarpSpecializedCooperative;

// A row reduction of the program's result over each output tile's columns (Program<float>::
// kReduce, an EpilogueReduce), each tile's partials written to GemmArgs::partials: CUTLASS's
// column-vector reduction left unfinished (its FinalReduction off), so that no tile waits for
// another. It names float the element of the aux output CUTLASS's void-D epilogue asks the
// tree for, since it stores no d.
template <int Reduce>
struct RowReduceOp;
template <>
struct RowReduceOp<static_cast<int>(EpilogueReduce::kSum)> {
  template <class T>
  using Fn = cutlass::plus<T>;
  using Element = float;
  static constexpr Element identity() { return 0.0f; }
};
template <>
struct RowReduceOp<static_cast<int>(EpilogueReduce::kMax)> {
  template <class T>
  using Fn = cutlass::maximum<T, true>;  // a NaN wins, as in torch.amax
  using Element = float;
  static constexpr Element identity() { return -INFINITY; }
};
template <>
struct RowReduceOp<static_cast<int>(EpilogueReduce::kMin)> {
  template <class T>
  using Fn = cutlass::minimum<T, true>;
  using Element = float;
  static constexpr Element identity() { return INFINITY; }
};

// A logsumexp's running state: the largest value m seen and s = sum of exp(x - m), so that one
// pass over the row gives both (its tile's logsumexp is m + log(s)). Eight bytes, aligned as
// CUTLASS's warp shuffle moves them (one 64-bit word).
struct alignas(8) MaxSumExp {
  float m, s;
  MaxSumExp() = default;
  // CUTLASS default-initializes its reduction identity from 0; ours is given as an argument.
  CUTLASS_HOST_DEVICE explicit constexpr MaxSumExp(int) : m(-INFINITY), s(0.0f) {}
  CUTLASS_HOST_DEVICE constexpr MaxSumExp(float m_, float s_) : m(m_), s(s_) {}
};

// Two states merged: the smaller max's sum moved onto the larger's. Equal maxes add as they
// are, so two rows of -inf (or +inf) never make exp(-inf - -inf); a NaN, in either field,
// reaches the sum and stays there, as it does in torch.logsumexp.
template <class T>
struct MergeMaxSumExp;
template <>
struct MergeMaxSumExp<MaxSumExp> {
  CUTLASS_HOST_DEVICE MaxSumExp operator()(MaxSumExp a, MaxSumExp b) const {
    const bool a_high = a.m >= b.m;
    const MaxSumExp hi = a_high ? a : b, lo = a_high ? b : a;
    const float scale = lo.m == hi.m ? 1.0f : expf(lo.m - hi.m);
    return MaxSumExp(hi.m, hi.s + lo.s * scale);
  }
};
template <int N>
struct MergeMaxSumExp<cutlass::Array<MaxSumExp, N>> {
  CUTLASS_HOST_DEVICE cutlass::Array<MaxSumExp, N> operator()(
      cutlass::Array<MaxSumExp, N> const& a, cutlass::Array<MaxSumExp, N> const& b) const {
    cutlass::Array<MaxSumExp, N> out;
    CUTLASS_PRAGMA_UNROLL
    for (int i = 0; i < N; ++i) out[i] = MergeMaxSumExp<MaxSumExp>{}(a[i], b[i]);
    return out;
  }
};

}  // namespace cuda
}  // namespace kw

// Each value the program leaves enters the reduction as a state of its own: (x, exp(0)).
template <cutlass::FloatRoundStyle Round>
struct cutlass::NumericConverter<kw::cuda::MaxSumExp, float, Round> {
  using result_type = kw::cuda::MaxSumExp;
  using source_type = float;
  CUTLASS_HOST_DEVICE static result_type convert(source_type const& x) { return {x, 1.0f}; }
  CUTLASS_HOST_DEVICE result_type operator()(source_type const& x) const { return convert(x); }
};

namespace kw {
namespace cuda {

template <>
struct RowReduceOp<static_cast<int>(EpilogueReduce::kLogSumExp)> {
  template <class T>
  using Fn = MergeMaxSumExp<T>;
  using Element = MaxSumExp;
  static constexpr Element identity() { return MaxSumExp(-INFINITY, 0.0f); }
};

template <int Reduce, class TileShape>
using RowPartialsOf = cutlass::epilogue::fusion::Sm90ColReduction<
    RowReduceOp<Reduce>::template Fn, RowReduceOp<Reduce>::template Fn,
    RowReduceOp<Reduce>::template Fn, 0, TileShape, typename RowReduceOp<Reduce>::Element,
    typename RowReduceOp<Reduce>::Element, cutlass::FloatRoundStyle::round_to_nearest,
    cute::Stride<cute::_1, cute::_0, cute::_0>, 4, true, false>;

template <int Reduce, class TileShape>
struct RowPartials : RowPartialsOf<Reduce, TileShape> {
  using Base = RowPartialsOf<Reduce, TileShape>;
  using Base::Base;
  using ElementAux = float;
  static typename Base::Arguments arguments(float* partials) {
    return {partials, RowReduceOp<Reduce>::identity(), {}};
  }
};

template <class ElementD, class TileShape, bool RowScaled, bool Sourced,
          template <class> class Program>
struct LinearEpilogue {
  static constexpr bool Programmed = kProgrammed<Program>;
  static_assert(!Sourced || RowScaled, "a source is the split's cross products");
  static constexpr auto kRound = cutlass::FloatRoundStyle::round_to_nearest;
  template <class Op, class... Children>
  using Node = cutlass::epilogue::fusion::Sm90EVT<Op, Children...>;
  template <template <class> class Fn, class Out>
  using Compute = cutlass::epilogue::fusion::Sm90Compute<Fn, Out, float, kRound>;
  using AScale = cutlass::epilogue::fusion::Sm90ColBroadcast<0, TileShape, float, float>;  // per m
  using BScale = cutlass::epilogue::fusion::Sm90RowBroadcast<0, TileShape, float, float>;  // per n
  using Bias = cutlass::epilogue::fusion::Sm90RowBroadcast<0, TileShape, ElementD, float>;
  using Acc = cutlass::epilogue::fusion::Sm90AccFetch;
  using ElementC = cute::conditional_t<Sourced, float, void>;
  using Sum = cute::conditional_t<
      Sourced,
      Node<Compute<cutlass::plus, float>, Acc, cutlass::epilogue::fusion::Sm90SrcFetch<float>>,
      Acc>;
  using Affine = cute::conditional_t<
      RowScaled,
      Node<Compute<cutlass::homogeneous_multiply_add, float>,
           Node<Compute<cutlass::multiplies, float>, Sum, AScale>, BScale, Bias>,
      Node<Compute<cutlass::plus, float>, Acc, Bias>>;
  using PerColumn = BScale;  // a float per n, as CUTLASS's row broadcast reads it
  using PerRow = AScale;     // a float per m: CUTLASS's column broadcast
  using Columns = std::make_index_sequence<Program<float>::kColumns>;
  using Rows = std::make_index_sequence<Program<float>::kRows>;
  using Fulls = std::make_index_sequence<Program<float>::kFulls>;

  static constexpr int kReduce = Program<float>::kReduce;
  static constexpr int kFulls = Program<float>::kFulls;
  // What CUTLASS's epilogue builder derives from the same types (its D element is the stored one
  // or, rows reduced, the partials' float): the subtile, and the stages of the C pipeline (source
  // and full-size operand loads) and of the D stores.
  using Descriptor = cutlass::epilogue::collective::detail::EpilogueDescriptor<
      TileShape, cutlass::epilogue::collective::EpilogueTileAuto, ElementC,
      cute::conditional_t<kReduce != 0, float, ElementD>, LinearEpilogueSchedule>;
  // The stages LinearSm90 builds the epilogue with where they differ from the builder's, for the
  // main loop's sake (its stages share the shared memory; a 128 x 32 float subtile a stage). A
  // sourced epilogue that stores nothing (rows reduced) still holds a destination buffer beside
  // its source stages (CUTLASS reuses the source's only where it stores): with 4 source stages
  // the main loop drops from 5 stages to 4, and 3 give it back. A full-size operand takes a
  // subtile per C stage: at the builder's 4 the main loop kept 3 of its 5 stages, 2 of 4 with a
  // source too; 2 C stages (3 where the source's buffers hold D's two) give one or two back.
  // A second operand takes its own subtiles: with 2 C stages throughout, the main loop keeps 3
  // stages in every variant (3 C stages beside a source would leave it 2).
  static constexpr int kStagesC = kFulls == 0 ? (Sourced && kReduce != 0 ? 3 : Descriptor::StagesC)
                                              : (Sourced && kReduce == 0 && kFulls == 1 ? 3 : 2);
  static constexpr int kStagesD = Sourced && kReduce != 0 ? 1 : Descriptor::StagesD;
  // A float per (m, n), row-major, brought into shared memory by TMA ahead of its subtile in the
  // C pipeline, as a source is: its stages are that pipeline's.
  using FullDescriptor = cutlass::epilogue::collective::detail::AuxLoadDescriptor<
      Descriptor, cutlass::layout::RowMajor, float>;
  using PerElement = cutlass::epilogue::fusion::Sm90AuxLoad<
      kStagesC, typename Descriptor::EpilogueTile, float, typename FullDescriptor::Stride,
      typename FullDescriptor::SmemLayoutAtom, typename FullDescriptor::CopyOpS2R>;
  using ProgramNode =
      typename ProgramTree<Compute<Program, ElementD>, Affine, PerColumn, PerRow, PerElement,
                           Columns, Rows, Fulls>::type;
  using Callbacks = cute::conditional_t<
      Programmed,
      cute::conditional_t<kReduce != 0, Node<RowPartials<kReduce, TileShape>, ProgramNode>,
                          ProgramNode>,
      Node<Compute<LinearActivation, ElementD>, Affine>>;
  // What the epilogue stores: nothing where it writes row partials alone.
  using StoredD = cute::conditional_t<kReduce != 0, void, ElementD>;

  static typename Affine::Arguments affine(const GemmArgs& g) {
    const auto* bias = static_cast<const ElementD*>(g.bias);  // null: 0
    if constexpr (Sourced) {
      return {{{{}, {}, {}}, {g.a_scale}, {}}, {g.b_scale}, {bias}, {}};
    } else if constexpr (RowScaled) {
      return {{{}, {g.a_scale}, {}}, {g.b_scale}, {bias}, {}};
    } else {
      return {{}, {bias}, {}};
    }
  }

  template <size_t... I, size_t... J, size_t... F>
  static typename ProgramNode::Arguments program_arguments(const GemmArgs& g, std::index_sequence<I...>,
                                                         std::index_sequence<J...>,
                                                         std::index_sequence<F...>) {
    return {affine(g), typename PerColumn::Arguments{g.columns[I]}...,
            typename PerRow::Arguments{g.rows[J]}...,
            typename PerElement::Arguments{
                g.fulls[F], 0.0f,
                typename FullDescriptor::Stride{cute::make_stride(g.ld_fulls[F], cute::Int<1>{}, int64_t{0})}}...,
            {g.program->consts}};
  }

  static typename Callbacks::Arguments arguments(const GemmArgs& g) {
    if constexpr (kReduce != 0) {
      return {program_arguments(g, Columns{}, Rows{}, Fulls{}),
              RowPartials<kReduce, TileShape>::arguments(g.partials)};
    } else if constexpr (Programmed) {
      return program_arguments(g, Columns{}, Rows{}, Fulls{});
    } else {
      return {affine(g), {g.activation}};
    }
  }
};

// ElementAB: the operands' type; ElementD: the output's and the bias's. Promoted: partial sums
// leave the tensor cores every promotion_interval instructions. RowScaled: the operands are
// row-scaled; Sourced: a float32 c is added to the sum; Program: the epilogue runs a compiled
// program (LinearEpilogue). TileScheduler: stream-K (the default) or CUTLASS's persistent
// data-parallel scheduler.
template <class ElementAB, class ElementD, class TileShape, class ClusterShape, bool Promoted,
          bool RowScaled, bool Sourced = false,
          class TileScheduler = cutlass::gemm::StreamKScheduler,
          template <class> class Program = NoProgram>
struct LinearSm90 {
  using LayoutA = cutlass::layout::RowMajor;     // [m, k]
  using LayoutB = cutlass::layout::ColumnMajor;  // [n, k] read as a k x n column-major B
  using LayoutD = cutlass::layout::RowMajor;
  using Tile = TileShape;
  using Cluster = ClusterShape;
  static constexpr int kAlignAB = 16 / sizeof(ElementAB);
  static constexpr int kAlignD = 16 / sizeof(ElementD);
  using Schedule = cutlass::gemm::KernelTmaWarpSpecializedCooperative;
  using EpilogueSchedule = LinearEpilogueSchedule;

  using Fusion = LinearEpilogue<ElementD, TileShape, RowScaled, Sourced, Program>;
  using BuiltEpilogue = typename cutlass::epilogue::collective::CollectiveBuilder<
      cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, TileShape, ClusterShape,
      cutlass::epilogue::collective::EpilogueTileAuto, float, float, typename Fusion::ElementC,
      LayoutD, Sourced ? 4 : kAlignD, typename Fusion::StoredD, LayoutD, kAlignD, EpilogueSchedule,
      typename Fusion::Callbacks>::CollectiveOp;
  // The same epilogue with the stages LinearEpilogue asks for (its kStagesC, kStagesD say why).
  using E = BuiltEpilogue;
  using Restaged = cutlass::epilogue::collective::CollectiveEpilogue<
      cutlass::epilogue::Sm90TmaWarpSpecialized<Fusion::kStagesC, Fusion::kStagesD, E::DispatchPolicy::FragmentSize,
                                                E::DispatchPolicy::ReuseSmemC, E::DispatchPolicy::DelayTmaStore>,
      typename E::CtaTileMNK, typename E::EpilogueTile, typename E::ElementC, typename E::StrideC,
      typename E::ElementD, typename E::StrideD, typename E::FusionCallbacks, typename E::CopyOpG2S,
      typename E::SmemLayoutAtomC, typename E::CopyOpS2R, typename E::CopyOpS2G, typename E::SmemLayoutAtomD,
      typename E::CopyOpR2S, typename E::CopyAtomC, typename E::CopyOpR2R>;
  static constexpr bool kBuilderStages = Fusion::kStagesC == E::DispatchPolicy::StagesC &&
                                          Fusion::kStagesD == E::DispatchPolicy::StagesD;
  static_assert(kProgrammed<Program> || kBuilderStages, "a kernel without a program keeps the builder's stages");
  using Epilogue = cute::conditional_t<kBuilderStages, BuiltEpilogue, Restaged>;

  using BuiltMainloop = typename cutlass::gemm::collective::CollectiveBuilder<
      cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, ElementAB, LayoutA, kAlignAB, ElementAB,
      LayoutB, kAlignAB, float, TileShape, ClusterShape,
      cutlass::gemm::collective::StageCountAutoCarveout<static_cast<int>(
          sizeof(typename Epilogue::SharedStorage))>,
      Schedule>::CollectiveOp;

  // Same tiles, copies and smem layouts; only the dispatch policy changes to the promoting one.
  using M = BuiltMainloop;
  using PromotedMainloop = cutlass::gemm::collective::CollectiveMma<
      cutlass::gemm::MainloopSm90TmaGmmaWarpSpecializedFP8<M::DispatchPolicy::Stages, ClusterShape,
                                                            Schedule>,
      TileShape, typename M::ElementA, typename M::StrideA, typename M::ElementB, typename M::StrideB,
      typename M::TiledMma, typename M::GmemTiledCopyA, typename M::SmemLayoutAtomA,
      typename M::SmemCopyAtomA, typename M::TransformA, typename M::GmemTiledCopyB,
      typename M::SmemLayoutAtomB, typename M::SmemCopyAtomB, typename M::TransformB>;

  using Mainloop = cute::conditional_t<Promoted, PromotedMainloop, BuiltMainloop>;
  // Stream-K: when output tiles are fewer than SMs (small m*n, long k) the k loop is shared out
  // too; the persistent scheduler hands out whole tiles only.
  using Kernel = cutlass::gemm::kernel::GemmUniversal<cute::Shape<int, int, int, int>, Mainloop,
                                                      Epilogue, TileScheduler>;
  using Gemm = cutlass::gemm::device::GemmUniversalAdapter<Kernel>;

  static typename Gemm::Arguments arguments(const GemmArgs& g) {
    using StrideA = typename Gemm::GemmKernel::StrideA;
    using StrideB = typename Gemm::GemmKernel::StrideB;
    using StrideD = typename Gemm::GemmKernel::StrideD;
    const int m = static_cast<int>(g.m), n = static_cast<int>(g.n), k = static_cast<int>(g.k);
    StrideA sa = cute::make_stride(g.lda, cute::Int<1>{}, int64_t{0});
    StrideB sb = cute::make_stride(g.ldb, cute::Int<1>{}, int64_t{0});
    StrideD sd = cute::make_stride(g.ldd, cute::Int<1>{}, int64_t{0});
    StrideD sc = cute::make_stride(Sourced ? g.ldc : g.ldd, cute::Int<1>{}, int64_t{0});
    cutlass::KernelHardwareInfo hw;
    cudaGetDevice(&hw.device_id);
    hw.sm_count = sm_count();
    typename Gemm::Arguments args{cutlass::gemm::GemmUniversalMode::kGemm,
                                  {m, n, k, 1},
                                  {static_cast<const ElementAB*>(g.a), sa,
                                   static_cast<const ElementAB*>(g.b), sb},
                                  {{}, Sourced ? g.c : nullptr, sc,
                                   Fusion::kReduce ? nullptr : static_cast<ElementD*>(g.d), sd},
                                  hw};
    args.epilogue.thread = Fusion::arguments(g);
    if constexpr (Promoted) {
      args.mainloop.mma_promotion_interval = static_cast<uint32_t>(g.promotion_interval);
    }
    return args;
  }

  static const char* unsupported(const GemmArgs& g) {
    auto args = arguments(g);
    return Gemm::can_implement(args) == cutlass::Status::kSuccess
               ? nullptr
               : "the CUTLASS kernel cannot take these shapes, strides or promotion interval";
  }

  static size_t workspace_bytes(const GemmArgs& g) { return Gemm::get_workspace_size(arguments(g)); }

  static int run(const GemmArgs& g, void* workspace, void* stream) {
    Gemm gemm;
    auto args = arguments(g);
    auto s = static_cast<cudaStream_t>(stream);
    cutlass::Status st = gemm.initialize(args, workspace, s);
    if (st == cutlass::Status::kSuccess) st = gemm.run(s);
    if (st != cutlass::Status::kSuccess) {
      cudaError_t e = cudaGetLastError();
      return e != cudaSuccess ? static_cast<int>(e) : static_cast<int>(cudaErrorLaunchFailure);
    }
    return static_cast<int>(cudaGetLastError());
  }
};

// Tile shapes, measured on H200 (docs/linear.md): 128x128 for the fp32-output kernels, which at
// k = 2048 took 0.99 ms for TF32 where 128x256 took 1.46 (and ping-pong 128x128, 1.77); the
// promoting kernels hold a second accumulator, which 128x128 also leaves room for.
using Cluster1x2 = cute::Shape<cute::_1, cute::_2, cute::_1>;
using Tile128x128x32 = cute::Shape<cute::_128, cute::_128, cute::_32>;
using LinearTf32 = LinearSm90<float, float, Tile128x128x32, Cluster1x2, false, false>;
using LinearTf32Split3 = LinearSm90<float, float, Tile128x128x32, Cluster1x2, true, false>;
// The fp16 kernels come in two schedules (see KW_DEFINE_LINEAR_WITH_STREAM_K): persistent
// data-parallel tiles took 0.636 ms where stream-K took 0.750 at 16384x2048 -> 4096, 0.363
// against 0.394 at 16384x4096 -> 1024, both with thousands of tiles.
using Tile128x128x64 = cute::Shape<cute::_128, cute::_128, cute::_64>;
static_assert(cute::size<0>(Tile128x128x64{}) == kFp16TileM &&
                  cute::size<1>(Tile128x128x64{}) == kFp16TileN,
              "linear.cu picks a programmed kernel's schedule by kFp16TileM x kFp16TileN");
using DataParallel = cutlass::gemm::PersistentScheduler;
template <bool Promoted, class Scheduler, bool Sourced = false,
          template <class> class Program = NoProgram>
using LinearFp16Of = LinearSm90<cutlass::half_t, float, Tile128x128x64, Cluster1x2, Promoted, true,
                                Sourced, Scheduler, Program>;
using LinearFp16Split3 = LinearFp16Of<true, DataParallel>;
using LinearFp16Split3StreamK = LinearFp16Of<true, cutlass::gemm::StreamKScheduler>;
// hi*hi alone, its cross products added from c (launch_split_gemm).
using LinearFp16HiSourced = LinearFp16Of<true, DataParallel, true>;
using LinearFp16HiSourcedStreamK = LinearFp16Of<true, cutlass::gemm::StreamKScheduler, true>;
using LinearFp16Scaled = LinearFp16Of<false, DataParallel>;
using LinearFp16ScaledStreamK = LinearFp16Of<false, cutlass::gemm::StreamKScheduler>;
using LinearBf16 = LinearSm90<cutlass::bfloat16_t, cutlass::bfloat16_t,
                              cute::Shape<cute::_128, cute::_256, cute::_64>, Cluster1x2, false,
                              false>;
using LinearFp16 = LinearSm90<cutlass::half_t, cutlass::half_t,
                              cute::Shape<cute::_128, cute::_256, cute::_64>, Cluster1x2, false,
                              false>;

// One instantiation per translation unit (csrc/cuda/linear_<kind>.cu), so that they compile in
// parallel; csrc/cuda/linear.cu declares these entry points and dispatches among them.
#define KW_DEFINE_LINEAR(Kind, Config)                                                      \
  const char* Kind##_unsupported(const GemmArgs& g) { return Config::unsupported(g); }      \
  size_t Kind##_workspace_bytes(const GemmArgs& g) { return Config::workspace_bytes(g); }   \
  int Kind##_run(const GemmArgs& g, void* workspace, void* stream) {                        \
    return Config::run(g, workspace, stream);                                               \
  }

template <class Config>
bool stream_k_pays_off(const GemmArgs& g) {
  using Tile = typename Config::Tile;
  return stream_k_pays_off(g.m, g.n, cute::size<0>(Tile{}), cute::size<1>(Tile{}));
}

// A kind whose data-parallel config (compiled here) hands shapes with too few tiles to its
// stream-K twin, compiled in parallel in csrc/cuda/linear_<kind>_stream_k.cu.
#define KW_DEFINE_LINEAR_WITH_STREAM_K(Kind, Config)                                          \
  KW_DEFINE_LINEAR(Kind##_data_parallel, Config)                                              \
  const char* Kind##_stream_k_unsupported(const GemmArgs& g);                                 \
  size_t Kind##_stream_k_workspace_bytes(const GemmArgs& g);                                  \
  int Kind##_stream_k_run(const GemmArgs& g, void* workspace, void* stream);                  \
  const char* Kind##_unsupported(const GemmArgs& g) {                                         \
    return stream_k_pays_off<Config>(g) ? Kind##_stream_k_unsupported(g)                      \
                                        : Kind##_data_parallel_unsupported(g);                \
  }                                                                                           \
  size_t Kind##_workspace_bytes(const GemmArgs& g) {                                          \
    return stream_k_pays_off<Config>(g) ? Kind##_stream_k_workspace_bytes(g)                  \
                                        : Kind##_data_parallel_workspace_bytes(g);            \
  }                                                                                           \
  int Kind##_run(const GemmArgs& g, void* workspace, void* stream) {                          \
    return stream_k_pays_off<Config>(g) ? Kind##_stream_k_run(g, workspace, stream)           \
                                        : Kind##_data_parallel_run(g, workspace, stream);     \
  }

}  // namespace cuda
}  // namespace kw
