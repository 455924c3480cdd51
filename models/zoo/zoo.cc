// The zoo's catalogue (names, descriptions, builders), target resolution and generation.
#include "models/zoo/zoo.h"

#include <chrono>

#include "models/zoo/architectures.h"

namespace tessera::zoo {

const std::vector<ModelSpec>& model_specs() {
  static const std::vector<ModelSpec> kSpecs = {
      {"resnet50", "torchvision ResNet-50 v1.5, image [N,3,224,224] -> logits [N,1000]", true, build_resnet50},
      {"mobilenetv2", "torchvision MobileNetV2 1.0, image [N,3,224,224] -> logits [N,1000]", true, build_mobilenet_v2},
      {"vgg16", "torchvision VGG-16 (no BN), image [N,3,224,224] -> logits [N,1000]", true, build_vgg16},
      {"inception_v3", "torchvision Inception v3 (eval), image [1,3,299,299] -> logits [1,1000]", false,
       build_inception_v3},
      {"bert_base", "BERT-base encoder, 12 layers, embeddings [1,128,768] -> hidden [1,128,768]", false,
       build_bert_base},
      {"tiny_cnn", "convs (strided, asymmetric pads, depthwise, dilated, grouped), pools, Gemm, Softmax", false,
       build_tiny_cnn},
      {"tiny_mobilenet", "inverted residuals, HardSwish, squeeze-excite gate, Concat, ReduceMean", false,
       build_tiny_mobilenet},
      {"tiny_transformer", "2-layer encoder, erf-pattern and Gelu-op GELU, broadcasting MatMul, Tanh head", false,
       build_tiny_transformer},
      {"tiny_mlp", "Gemm variants, MatMul, activations, Sqrt/Pow, Identity, Unsqueeze/Squeeze", false, build_tiny_mlp},
  };
  return kSpecs;
}

const ModelSpec* find_model(const std::string& name) {
  for (const ModelSpec& spec : model_specs()) {
    if (name == spec.name) return &spec;
  }
  return nullptr;
}

namespace {

bool is_tiny(const ModelSpec& spec) { return std::string(spec.name).rfind("tiny_", 0) == 0; }

}  // namespace

Result<std::vector<ModelRequest>> resolve_target(const std::string& target, int64_t batch) {
  std::vector<ModelRequest> requests;
  if (target == "all" || target == "tiny") {
    for (const ModelSpec& spec : model_specs()) {
      if (is_tiny(spec) != (target == "tiny")) continue;
      if (spec.batched) {
        requests.push_back({&spec, 1});
        requests.push_back({&spec, 8});
      } else {
        requests.push_back({&spec, 1});
      }
    }
    return requests;
  }
  const ModelSpec* spec = find_model(target);
  if (spec == nullptr) {
    return Status::error("unknown model \"" + target + "\" (see tessera-zoo --list)");
  }
  requests.push_back({spec, spec->batched ? batch : 1});
  return requests;
}

std::string file_stem(const ModelRequest& request) {
  std::string stem = request.spec->name;
  if (request.spec->batched) stem += "_b" + std::to_string(request.batch);
  return stem;
}

GraphBuilder build_model(const ModelRequest& request, uint64_t seed) {
  GraphBuilder graph(file_stem(request));
  Rng rng(model_seed(seed, request.spec->name));
  LayerBuilder nn(graph, rng);
  request.spec->build(nn, request.batch);
  return graph;
}

Result<GeneratedModel> generate(const ModelRequest& request, uint64_t seed, const std::string& dir) {
  const auto start = std::chrono::steady_clock::now();
  const GraphBuilder graph = build_model(request, seed);
  GeneratedModel result;
  result.stem = file_stem(request);
  TESSERA_RETURN_IF_ERROR(write_model(graph, dir, result.stem));
  result.parameter_count = graph.parameter_count();
  result.flops = graph.flops();
  result.weight_bytes = graph.weights().size();
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace tessera::zoo
