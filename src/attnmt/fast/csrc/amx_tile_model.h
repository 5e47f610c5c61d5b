// A model of the AMX instructions the int8 kernel (int8_panels.cpp: pairs_amx) and the float32 tiles
// (split_tiles.cpp: split_pairs) use, in plain C++:
// the same kernel, its addresses, strides, tile shapes and tile numbers, run on a CPU without AMX,
// so that tests can hold it to the AVX512-VNNI kernel's products on any machine where that kernel
// runs (the kernel "amx_model").  Written from the Intel SDM's descriptions (vol. 2, LDTILECFG, TILELOADD, TILEZERO,
// TDPBUSD, TDPBF16PS, TILESTORED, TILERELEASE), palette 1: 8 tiles of at most 16 rows × 64 bytes, each
// thread its own.  Where the hardware faults (#UD: shapes that do not agree, the same tile twice, a
// tile not configured; LDTILECFG's #GP: a palette it lacks), or would release the tiles (palette 0),
// the model stops with an error naming the instruction.
#pragma once

#include <c10/util/Exception.h>

#include <cmath>
#include <cstdint>
#include <cstring>

namespace attnmt::amx_tile_model {

struct Tile {
  int rows = 0;   // 0: not configured
  int colsb = 0;  // bytes a row
  uint8_t bytes[16][64] = {};
};

struct Tiles {
  bool configured = false;
  Tile tile[8];
};

inline Tiles& tiles() {
  thread_local Tiles state;
  return state;
}

inline Tile& configured(int t, const char* instruction) {
  Tiles& state = tiles();
  TORCH_CHECK(state.configured && t >= 0 && t < 8 && state.tile[t].rows > 0, "amx_tile_model: ", instruction,
              " on tmm", t, ", which is not configured (#UD)");
  return state.tile[t];
}

// LDTILECFG: byte 0 the palette, bytes 16 + 2t the bytes a row of tile t (16 bits), byte 48 + t its rows;
// every tile zeroed.
inline void loadconfig(const void* config) {
  const auto* bytes = static_cast<const uint8_t*>(config);
  TORCH_CHECK(bytes[0] == 1, "amx_tile_model: ldtilecfg with palette ", int(bytes[0]), ", not 1");
  Tiles& state = tiles();
  for (int t = 0; t < 8; ++t) {
    Tile& tile = state.tile[t];
    tile.colsb = bytes[16 + 2 * t] | bytes[17 + 2 * t] << 8;
    tile.rows = bytes[48 + t];
    TORCH_CHECK(tile.rows <= 16 && tile.colsb <= 64 && (tile.rows == 0) == (tile.colsb == 0),
                "amx_tile_model: ldtilecfg gives tmm", t, " ", tile.rows, " rows of ", tile.colsb, " bytes");
    std::memset(tile.bytes, 0, sizeof tile.bytes);
  }
  state.configured = true;
}

inline void zero(int t) { std::memset(configured(t, "tilezero").bytes, 0, sizeof(Tile::bytes)); }

// TILELOADD: row r from base + r · stride, its configured bytes; the rest of the tile zero.
inline void loadd(int t, const void* base, int64_t stride) {
  Tile& tile = configured(t, "tileloadd");
  std::memset(tile.bytes, 0, sizeof tile.bytes);
  for (int r = 0; r < tile.rows; ++r)
    std::memcpy(tile.bytes[r], static_cast<const uint8_t*>(base) + r * stride, tile.colsb);
}

inline void stored(int t, void* base, int64_t stride) {
  const Tile& tile = configured(t, "tilestored");
  for (int r = 0; r < tile.rows; ++r) std::memcpy(static_cast<uint8_t*>(base) + r * stride, tile.bytes[r], tile.colsb);
}

// TDPBUSD dst, a, b: dst [M, N] int32 += a [M, 4K] (u8) · b [K, 4N] (s8), each int32 of dst the sum
// over k of 4 products a[m][4k + i] · b[k][4n + i]; M = rows of dst and a, K = rows of b = a's
// bytes a row / 4, N = dst's bytes a row / 4 = b's.  The sums wrap around as the hardware's do.
inline void dpbusd(int dst, int a, int b) {
  Tile& c = configured(dst, "tdpbusd");
  const Tile& x = configured(a, "tdpbusd");
  const Tile& w = configured(b, "tdpbusd");
  TORCH_CHECK(c.rows == x.rows && x.colsb == 4 * w.rows && c.colsb == w.colsb && dst != a && dst != b && a != b,
              "amx_tile_model: tdpbusd tmm", dst, ", tmm", a, ", tmm", b, " with shapes that do not agree (#UD)");
  for (int m = 0; m < c.rows; ++m)
    for (int n = 0; n < c.colsb / 4; ++n) {
      int32_t sum;
      std::memcpy(&sum, c.bytes[m] + 4 * n, 4);
      uint32_t total = static_cast<uint32_t>(sum);
      for (int k = 0; k < w.rows; ++k)
        for (int i = 0; i < 4; ++i)
          total += static_cast<uint32_t>(int32_t{x.bytes[m][4 * k + i]} * int32_t{static_cast<int8_t>(w.bytes[k][4 * n + i])});
      sum = static_cast<int32_t>(total);
      std::memcpy(c.bytes[m] + 4 * n, &sum, 4);
    }
}

// A bf16 (its 16 bits) as the float it is, denormals read as zero (TDPBF16PS's DAZ).
inline float bf16_daz(const uint8_t* bytes) {
  uint32_t bits = uint32_t{bytes[0]} << 16 | uint32_t{bytes[1]} << 24;
  if ((bits & 0x7f800000u) == 0) bits &= 0x80000000u;
  float value;
  std::memcpy(&value, &bits, 4);
  return value;
}

// TDPBF16PS dst, a, b: dst [M, N] float32 += a [M, 2K] (bf16) · b [K, 2N] (bf16), each float of dst
// adding, for each k, a[m][2k] · b[k][2n] and then a[m][2k + 1] · b[k][2n + 1] (a product of two bf16
// is exact in float32), each sum rounded to nearest even and a denormal sum flushed to zero, as the
// SDM's pseudo-code does.
inline void dpbf16ps(int dst, int a, int b) {
  Tile& c = configured(dst, "tdpbf16ps");
  const Tile& x = configured(a, "tdpbf16ps");
  const Tile& w = configured(b, "tdpbf16ps");
  TORCH_CHECK(c.rows == x.rows && x.colsb == 4 * w.rows && c.colsb == w.colsb && dst != a && dst != b && a != b,
              "amx_tile_model: tdpbf16ps tmm", dst, ", tmm", a, ", tmm", b, " with shapes that do not agree (#UD)");
  for (int m = 0; m < c.rows; ++m)
    for (int n = 0; n < c.colsb / 4; ++n) {
      float sum;
      std::memcpy(&sum, c.bytes[m] + 4 * n, 4);
      for (int k = 0; k < w.rows; ++k)
        for (int i = 0; i < 2; ++i) {
          sum += bf16_daz(x.bytes[m] + 4 * k + 2 * i) * bf16_daz(w.bytes[k] + 4 * n + 2 * i);
          if (sum != 0.f && std::fabs(sum) < 1.17549435e-38f) sum = std::copysign(0.f, sum);
        }
      std::memcpy(c.bytes[m] + 4 * n, &sum, 4);
    }
}

// TILERELEASE: the tiles back to their initial, unconfigured state.
inline void release() { tiles() = Tiles(); }

}  // namespace attnmt::amx_tile_model
