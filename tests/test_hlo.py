"""Unit tests of helpers.hlo (the steps of XLA's optimized HLO text)."""

import pytest

from helpers.hlo import xla_steps

# Trimmed from TensorFlow 2.21's optimized HLO of a Dense(4)+ReLU, Dense(2) network at a batch of 256.
HLO_256 = """HloModule a_inference_function_96__.1, is_scheduled=true

%fused_computation (param_0: f32[256,2], param_1.1: f32[2]) -> f32[256,2] {
  %param_0 = f32[256,2]{1,0} parameter(0)
  %param_1.1 = f32[2]{0} parameter(1)
  %BiasAdd.1 = f32[256,2]{1,0} broadcast(%param_1.1), dimensions={1}, metadata={op_type="BiasAdd" op_name="d2/BiasAdd"}
  ROOT %BiasAdd.0 = f32[256,2]{1,0} add(%param_0, %BiasAdd.1), metadata={op_type="BiasAdd" op_name="d2/BiasAdd"}
}

%fused_computation.1 (param_0.2: f32[256,4], param_1.5: f32[4]) -> f32[256,4] {
  %param_0.2 = f32[256,4]{1,0} parameter(0)
  %BiasAdd.2 = f32[256,4]{1,0} add(%param_0.2, %BiasAdd.3), metadata={op_type="BiasAdd" op_name="d1/BiasAdd"}
  %Relu.2 = f32[] constant(0), metadata={op_type="Relu" op_name="d1/Relu"}
  ROOT %Relu.0 = f32[256,4]{1,0} maximum(%BiasAdd.2, %Relu.1), metadata={op_type="Relu" op_name="d1/Relu"}
}

ENTRY %a_inference_function_96__.1 (arg0.1: f32[256,8], arg1.1: f32[8,4]) -> f32[256,2] {
  %arg0.1 = f32[256,8]{1,0} parameter(0), parameter_replication={false}, metadata={op_name="XLA_Args"}
  %MatMul.4 = f32[256,4]{1,0} dot(%arg0.1, %arg1.1), lhs_contracting_dims={1}, metadata={op_type="MatMul" op_name="d1/MatMul"}
  %broadcast_maximum_fusion = f32[256,4]{1,0} fusion(%MatMul.4, %arg2.1), kind=kLoop, calls=%fused_computation.1, metadata={op_type="Relu"}
  %bitcast = f32[256,4]{1,0} bitcast(%broadcast_maximum_fusion)
  %MatMul.6 = f32[256,2]{1,0} dot(%bitcast, %arg3.1), lhs_contracting_dims={1}, metadata={op_type="MatMul" op_name="d2/MatMul"}
  ROOT %broadcast_add_fusion = f32[256,2]{1,0} fusion(%MatMul.6, %arg4.1), kind=kLoop, calls=%fused_computation, metadata={op_type="BiasAdd"}
}
"""


def test_xla_steps_lists_the_entry_steps_with_their_tf_ops():
    assert xla_steps(HLO_256) == [
        ("dot", "MatMul"),
        ("fusion (kLoop)", "BiasAdd + Relu"),
        ("dot", "MatMul"),
        ("fusion (kLoop)", "BiasAdd"),
    ]


def test_xla_steps_reads_an_output_fusion():
    hlo = """%fc (p0: f32[4], p1: f32[8], p2: f32[8,4]) -> f32[4] {
  %dot.3 = f32[4]{0} dot(%p1, %p2), metadata={op_type="MatMul" op_name="d1/MatMul"}
  ROOT %BiasAdd.3 = f32[4]{0} add(%dot.3, %p0), metadata={op_type="BiasAdd" op_name="d1/BiasAdd"}
}

ENTRY %main (arg0.1: f32[1,8]) -> f32[4] {
  %arg0.1 = f32[1,8]{1,0} parameter(0)
  ROOT %dot_add_fusion = f32[4]{0} fusion(%arg2.1, %arg0.1, %arg1.1), kind=kOutput, calls=%fc
}
"""
    assert xla_steps(hlo) == [("fusion (kOutput)", "MatMul + BiasAdd")]


def test_xla_steps_rejects_bad_input():
    with pytest.raises(TypeError, match="hlo"):
        xla_steps(b"HloModule m")
    with pytest.raises(ValueError, match="hlo"):
        xla_steps("HloModule m\n")


def test_hlo_steps_names_each_fusion_by_the_instructions_it_computes():
    from helpers.hlo import hlo_steps
    assert hlo_steps(HLO_256) == ["dot", "fusion (kLoop): add + maximum", "dot", "fusion (kLoop): add"]


def test_hlo_steps_leaves_out_a_fusion_that_only_moves_data():
    from helpers.hlo import hlo_steps
    hlo = """%fc (p0: f32[1,8]) -> f32[8] {
  %p0 = f32[1,8]{1,0} parameter(0)
  ROOT %b = f32[8]{0} bitcast(%p0)
}

ENTRY %main (arg0.1: f32[1,8], arg1.1: f32[8,4]) -> f32[4] {
  %arg0.1 = f32[1,8]{1,0} parameter(0)
  %arg1.1 = f32[8,4]{1,0} parameter(1)
  %f = f32[8]{0} fusion(%arg0.1), kind=kLoop, calls=%fc
  ROOT %d = f32[4]{0} dot(%f, %arg1.1), lhs_contracting_dims={0}, rhs_contracting_dims={0}
}
"""
    assert hlo_steps(hlo) == ["dot"]
    with pytest.raises(ValueError):
        hlo_steps("no module")
