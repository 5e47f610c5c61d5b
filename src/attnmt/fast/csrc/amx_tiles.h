// What the AMX kernels share (int8_panels.cpp: pairs_amx, split_tiles.cpp: split_pairs): the tiles'
// configuration, one instruction on the tiles or on their model (amx_tile_model.h), and whether
// this process may use them.
#pragma once

#include "amx_tile_model.h"

#include <cstdint>

#if defined(__AVX2__) && defined(__FMA__)  // the x86-64 build, as the kernels' (int8_panels.cpp)
#include <cpuid.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace attnmt {

// ldtilecfg's 64 bytes, palette 1: tmm0-7 each 16 rows × 64 bytes.
struct alignas(64) TileConfig {
  uint8_t palette = 1, start_row = 0, reserved[14] = {};
  uint16_t bytes_per_row[16] = {64, 64, 64, 64, 64, 64, 64, 64};
  uint8_t rows[16] = {16, 16, 16, 16, 16, 16, 16, 16};
};

#if defined(__AVX2__) && defined(__FMA__)
// Whether the CPU has the AMX features `edx_bits` names (CPUID leaf 7's EDX: bit 22 AMX-BF16, 24
// AMX-TILE, 25 AMX-INT8) and Linux lets this process use the tiles (a request for their state, which
// holds for every thread of the process).
inline bool amx_tiles_usable(unsigned edx_bits) {
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx) || (edx & edx_bits) != edx_bits) return false;
  constexpr long kRequestPermission = 0x1023, kTileData = 18;  // ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA
  return syscall(SYS_arch_prctl, kRequestPermission, kTileData) == 0;
}
#endif

}  // namespace attnmt

// One AMX instruction (`op`: _tile_op), on the tiles, or (a constexpr `Model` true) on amx_tile_model's
// copy of them.
#define ATTNMT_TILE(op, ...)                              \
  do {                                                    \
    if constexpr (Model) amx_tile_model::op(__VA_ARGS__); \
    else _tile_##op(__VA_ARGS__);                         \
  } while (0)
