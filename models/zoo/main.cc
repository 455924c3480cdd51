// tessera-zoo: the command line over the zoo (argument parsing, progress lines, exit codes).
#include <charconv>
#include <cstdio>
#include <string>
#include <string_view>

#include "models/zoo/zoo.h"

namespace {

constexpr const char* kUsage =
    "usage: tessera-zoo <model|all|tiny> [--batch N] [--seed S] -o DIR\n"
    "       tessera-zoo --list\n"
    "       tessera-zoo --help\n"
    "\n"
    "Writes DIR/<name>.json and DIR/<name>.bin in Tessera model format v1 with seeded random\n"
    "weights; the same seed gives byte-identical files.\n"
    "  <model>     one model from --list; batched models are written as <model>_b<N>\n"
    "  all         resnet50, mobilenetv2, vgg16 at batch 1 and 8, inception_v3 and bert_base\n"
    "  tiny        every tiny_* model\n"
    "  --batch N   batch of resnet50/mobilenetv2/vgg16 (default 1; other models fix their own)\n"
    "  --seed S    weight seed, an unsigned 64-bit integer (default 1)\n"
    "  -o DIR      output directory, created if missing\n";

template <class T>
bool parse_number(std::string_view text, T* value) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), *value);
  return ec == std::errc() && end == text.data() + text.size();
}

// "8.18 G", "4.86 M", "642 k": three significant digits with an SI prefix.
std::string si(double value) {
  const char* prefix = "";
  for (const char* p : {"k", "M", "G", "T"}) {
    if (value < 1000) break;
    value /= 1000;
    prefix = p;
  }
  char text[32];
  std::snprintf(text, sizeof(text), "%.3g %s", value, prefix);
  return text;
}

int fail(const std::string& message) {
  std::fprintf(stderr, "tessera-zoo: %s\n", message.c_str());
  return 2;
}

void list_models() {
  for (const auto& spec : tessera::zoo::model_specs()) {
    std::printf("%-17s %s%s\n", spec.name, spec.description, spec.batched ? " (batched)" : "");
  }
  std::printf("%-17s %s\n", "all", "resnet50, mobilenetv2, vgg16 at batch 1 and 8, plus inception_v3 and bert_base");
  std::printf("%-17s %s\n", "tiny", "every tiny_* model");
}

}  // namespace

int main(int argc, char** argv) {
  std::string target, out_dir;
  int64_t batch = 1;
  bool batch_given = false;
  uint64_t seed = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto next_value = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
    if (arg == "--help" || arg == "-h") {
      std::fputs(kUsage, stdout);
      return 0;
    } else if (arg == "--list") {
      list_models();
      return 0;
    } else if (arg == "--batch") {
      const char* v = next_value();
      if (v == nullptr || !parse_number(v, &batch) || batch < 1 || batch > 4096) {
        return fail("--batch needs an integer in [1, 4096]");
      }
      batch_given = true;
    } else if (arg == "--seed") {
      const char* v = next_value();
      if (v == nullptr || !parse_number(v, &seed)) return fail("--seed needs an unsigned 64-bit integer");
    } else if (arg == "-o" || arg == "--output") {
      const char* v = next_value();
      if (v == nullptr || *v == '\0') return fail("-o needs a directory");
      out_dir = v;
    } else if (!arg.empty() && arg[0] == '-') {
      return fail("unknown option \"" + arg + "\"\n" + kUsage);
    } else if (!target.empty()) {
      return fail("more than one model given (\"" + target + "\" and \"" + arg + "\")");
    } else {
      target = arg;
    }
  }
  if (target.empty()) return fail(std::string("no model given\n") + kUsage);
  if (out_dir.empty()) return fail("no output directory given (-o DIR)");

  auto requests = tessera::zoo::resolve_target(target, batch);
  if (!requests.ok()) return fail(requests.status().message());
  for (const auto& request : *requests) {
    if (batch_given && (!request.spec->batched || request.batch != batch)) {
      std::fprintf(stderr, "tessera-zoo: note: --batch does not apply to %s\n",
                   tessera::zoo::file_stem(request).c_str());
    }
    auto written = tessera::zoo::generate(request, seed, out_dir);
    if (!written.ok()) return fail(written.status().message());
    std::printf("%-17s %10lld params  %8sFLOPs  %8sB weights  %5.2f s  -> %s/%s.json\n", written->stem.c_str(),
                static_cast<long long>(written->parameter_count), si(static_cast<double>(written->flops)).c_str(),
                si(static_cast<double>(written->weight_bytes)).c_str(), written->seconds, out_dir.c_str(),
                written->stem.c_str());
    std::fflush(stdout);
  }
  return 0;
}
