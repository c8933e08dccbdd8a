// mo-lower-to-linalg, convolution and pooling: tensor.pad in front, then the
// upstream named convolution or pooling where one has the layout.
// RUN: mo-opt %s --split-input-file --mo-lower-to-linalg --cse | FileCheck %s

// Padding is a tensor.pad; one group is linalg.conv_2d_nhwc_hwcf; symbolic
// spatial dims give dim expressions, sized from the arguments.
// CHECK-LABEL: func.func @conv2d(
// CHECK: %[[H:.+]] = arith.subi %{{.+}}, %c1 : index
// CHECK: %[[HD:.+]] = arith.floordivsi %[[H]], %c2 : index
// CHECK: %[[HO:.+]] = arith.addi %[[HD]], %c1 : index
// CHECK: tensor.pad %{{.+}} low[0, 1, 1, 0] high[0, 1, 0, 0]
// CHECK: tensor.empty(%{{.+}}, %[[HO]]) : tensor<?x?x4x4xf32>
// CHECK: linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%{{.+}}, %{{.+}} : tensor<?x?x9x3xf32>, tensor<3x3x3x4xf32>)
mo.graph @conv2d<n, h>(%x: !mo.tensor<[n, h, 8, 3], f32>, %w: !mo.tensor<[3, 3, 3, 4], f32>) -> !mo.tensor<[n, (h - 1) floordiv 2 + 1, 4, 4], f32> {
  %y = mo.conv(%x, %w) {dilations = array<i64: 1, 1>, num_groups = 1 : i64, paddings = array<i64: 1, 1, 1, 0>, strides = array<i64: 2, 2>} : (!mo.tensor<[n, h, 8, 3], f32>, !mo.tensor<[3, 3, 3, 4], f32>) -> !mo.tensor<[n, (h - 1) floordiv 2 + 1, 4, 4], f32>
  mo.output %y : !mo.tensor<[n, (h - 1) floordiv 2 + 1, 4, 4], f32>
}

// -----

// A depthwise filter [R, S, 1, C * M] is the named depthwise op's [R, S, C, M].
// CHECK-LABEL: func.func @depthwise(
// CHECK: tensor.collapse_shape %{{.+}} {{\[\[}}0], [1], [2, 3]] : tensor<3x3x1x8xf32> into tensor<3x3x8xf32>
// CHECK: tensor.expand_shape %{{.+}} output_shape [3, 3, 4, 2] : tensor<3x3x8xf32> into tensor<3x3x4x2xf32>
// CHECK: linalg.depthwise_conv_2d_nhwc_hwcm {{.+}} outs(%{{.+}} : tensor<1x6x6x4x2xf32>)
// CHECK: tensor.collapse_shape %{{.+}} {{\[\[}}0], [1], [2], [3, 4]] : tensor<1x6x6x4x2xf32> into tensor<1x6x6x8xf32>
mo.graph @depthwise(%x: !mo.tensor<[1, 8, 8, 4], f32>, %w: !mo.tensor<[3, 3, 1, 8], f32>) -> !mo.tensor<[1, 6, 6, 8], f32> {
  %y = mo.conv(%x, %w) {dilations = array<i64: 1, 1>, num_groups = 4 : i64, paddings = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (!mo.tensor<[1, 8, 8, 4], f32>, !mo.tensor<[3, 3, 1, 8], f32>) -> !mo.tensor<[1, 6, 6, 8], f32>
  mo.output %y : !mo.tensor<[1, 6, 6, 8], f32>
}

// -----

// Other groupings: one generic over [..., G, C/G] views; f16 accumulates in f32.
// CHECK: #[[IN:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1 + d4, d2, d5)>
// CHECK: #[[W:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5, d2, d3)>
// CHECK-LABEL: func.func @grouped(
// CHECK: tensor.expand_shape %{{.+}} output_shape [1, 8, 2, 2] : tensor<1x8x4xf16> into tensor<1x8x2x2xf16>
// CHECK: tensor.expand_shape %{{.+}} output_shape [3, 2, 2, 3] : tensor<3x2x6xf16> into tensor<3x2x2x3xf16>
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[W]], #{{.+}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
// CHECK-SAME: outs(%{{.+}} : tensor<1x6x2x3xf32>)
// CHECK: arith.extf
// CHECK: tensor.collapse_shape %{{.+}} : tensor<1x6x2x3xf32> into tensor<1x6x6xf32>
// CHECK: arith.truncf %{{.+}} : f32 to f16
mo.graph @grouped(%x: !mo.tensor<[1, 8, 4], f16>, %w: !mo.tensor<[3, 2, 6], f16>) -> !mo.tensor<[1, 6, 6], f16> {
  %y = mo.conv(%x, %w) {dilations = array<i64: 1>, num_groups = 2 : i64, paddings = array<i64: 0, 0>, strides = array<i64: 1>} : (!mo.tensor<[1, 8, 4], f16>, !mo.tensor<[3, 2, 6], f16>) -> !mo.tensor<[1, 6, 6], f16>
  mo.output %y : !mo.tensor<[1, 6, 6], f16>
}

// -----

// One group in 3-D: linalg.conv_3d_ndhwc_dhwcf.
// CHECK-LABEL: func.func @conv3d(
// CHECK: linalg.conv_3d_ndhwc_dhwcf {dilations = dense<1> : tensor<3xi64>, strides = dense<1> : tensor<3xi64>}
mo.graph @conv3d(%x: !mo.tensor<[1, 4, 4, 4, 2], f32>, %w: !mo.tensor<[2, 2, 2, 2, 3], f32>) -> !mo.tensor<[1, 3, 3, 3, 3], f32> {
  %y = mo.conv(%x, %w) {dilations = array<i64: 1, 1, 1>, num_groups = 1 : i64, paddings = array<i64: 0, 0, 0, 0, 0, 0>, strides = array<i64: 1, 1, 1>} : (!mo.tensor<[1, 4, 4, 4, 2], f32>, !mo.tensor<[2, 2, 2, 2, 3], f32>) -> !mo.tensor<[1, 3, 3, 3, 3], f32>
  mo.output %y : !mo.tensor<[1, 3, 3, 3, 3], f32>
}

// -----

// A transposed convolution: the input spread by the stride, padded by
// dilation * (kernel - 1) - padding (+ output padding), the filter flipped.
// CHECK: #[[FLIP:.+]] = affine_map<(d0, d1, d2, d3) -> (-d0 + 2, -d1 + 2, d3, d2)>
// CHECK-LABEL: func.func @transpose(
// CHECK: tensor.insert_slice %{{.+}} into %{{.+}}[0, 0, 0, 0] [1, 4, 4, 2] [1, 2, 2, 1] : tensor<1x4x4x2xf32> into tensor<1x7x7x2xf32>
// CHECK: tensor.pad %{{.+}} low[0, 1, 1, 0] high[0, 2, 2, 0]
// CHECK: linalg.generic {indexing_maps = [#[[FLIP]], #{{.+}}]
// CHECK-SAME: ins(%{{.+}} : tensor<3x3x5x2xf32>) outs(%{{.+}} : tensor<3x3x2x5xf32>)
// CHECK: linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%{{.+}}, %{{.+}} : tensor<1x10x10x2xf32>, tensor<3x3x2x5xf32>)
mo.graph @transpose(%x: !mo.tensor<[1, 4, 4, 2], f32>, %w: !mo.tensor<[3, 3, 5, 2], f32>) -> !mo.tensor<[1, 8, 8, 5], f32> {
  %y = mo.conv_transpose(%x, %w) {dilations = array<i64: 1, 1>, output_paddings = array<i64: 1, 1>, paddings = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (!mo.tensor<[1, 4, 4, 2], f32>, !mo.tensor<[3, 3, 5, 2], f32>) -> !mo.tensor<[1, 8, 8, 5], f32>
  mo.output %y : !mo.tensor<[1, 8, 8, 5], f32>
}

// -----

// Max pooling pads with -inf, in ceil mode as far as the last window reaches.
// CHECK-LABEL: func.func @max_pool(
// CHECK-DAG: %[[NEG:.+]] = arith.constant 0xFF800000 : f32
// CHECK: tensor.pad %{{.+}} low[0, 0, 0, 0] high[0, 1, 1, 0]
// CHECK: tensor.yield %[[NEG]] : f32
// CHECK: linalg.fill ins(%[[NEG]] : f32)
// CHECK: linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%{{.+}}, %{{.+}} : tensor<1x6x6x3xf32>, tensor<2x2xf32>)
mo.graph @max_pool(%x: !mo.tensor<[1, 5, 5, 3], f32>) -> !mo.tensor<[1, 3, 3, 3], f32> {
  %y = mo.max_pool(%x) {ceil_mode = true, dilations = array<i64: 1, 1>, filter_shape = array<i64: 2, 2>, paddings = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>} : (!mo.tensor<[1, 5, 5, 3], f32>) -> !mo.tensor<[1, 3, 3, 3], f32>
  mo.output %y : !mo.tensor<[1, 3, 3, 3], f32>
}

// -----

// Average pooling: a sum pool (bf16 into f32), divided by the window size.
// CHECK-LABEL: func.func @avg_pool(
// CHECK: linalg.pooling_nhwc_sum {{.+}} outs(%{{.+}} : tensor<1x4x4x3xf32>)
// CHECK: %[[NINE:.+]] = arith.constant 9.000000e+00 : f32
// CHECK: arith.divf %{{.+}}, %[[NINE]] : f32
// CHECK: arith.truncf %{{.+}} : f32 to bf16
mo.graph @avg_pool(%x: !mo.tensor<[1, 4, 4, 3], bf16>) -> !mo.tensor<[1, 4, 4, 3], bf16> {
  %y = mo.avg_pool(%x) {ceil_mode = false, count_boundary = true, dilations = array<i64: 1, 1>, filter_shape = array<i64: 3, 3>, paddings = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : (!mo.tensor<[1, 4, 4, 3], bf16>) -> !mo.tensor<[1, 4, 4, 3], bf16>
  mo.output %y : !mo.tensor<[1, 4, 4, 3], bf16>
}
