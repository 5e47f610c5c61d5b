"""What the machine allows: the instruction-set cap a user sets for oneDNN, read once for every kernel."""

import pytest

from attnmt.hardware import amx_allowed, bf16_native, cpu_flags


@pytest.mark.parametrize("cap, allowed", [(None, True), ("", True), ("ALL", True), ("avx512_core_amx", True),
                                          ("AVX512_CORE_AMX_FP16", True), ("AVX512_CORE_VNNI", False),
                                          ("avx2", False), ("AVX512_CORE_BF16", False)])
def test_amx_is_allowed_unless_onednn_max_cpu_isa_names_an_isa_below_it(monkeypatch, cap, allowed):
    if cap is None:
        monkeypatch.delenv("ONEDNN_MAX_CPU_ISA", raising=False)
    else:
        monkeypatch.setenv("ONEDNN_MAX_CPU_ISA", cap)
    assert amx_allowed() is allowed


def test_a_cap_below_bf16_makes_bf16_emulated_where_the_cpu_has_it(monkeypatch):
    monkeypatch.setenv("ONEDNN_MAX_CPU_ISA", "avx2")
    native, why = bf16_native()
    assert not native
    assert ("ONEDNN_MAX_CPU_ISA=AVX2" in why) == bool(cpu_flags() & {"avx512_bf16", "amx_bf16"})
