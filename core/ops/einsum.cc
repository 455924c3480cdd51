// Einsum: the equation becomes labels (parse_einsum); each output element is the sum, over
// the summed labels in row-major order, of the inputs' product, accumulated in float in that
// fixed order, so any tiling gives the same bits. Tiles split the output freely; an input's
// footprint is the output region on its kept labels and everything on its summed ones.
// Performance: correctness first. The batched-matmul forms ("bij,bjk->bik", attention's
// "bhid,bhjd->bhij") would pay to run as the GEMM kernels (pack the operands per batch into
// the MatMul layout); here they are strided dot products.
#include "core/ops/einsum.h"

#include <algorithm>

#include "core/base/checked_math.h"
#include "core/ops/parsers.h"
#include "core/ops/region_walk.h"
#include "core/ops/tiling_util.h"

namespace tessera::ops {

namespace {

constexpr char kEllipsis = '.';

bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// A term's subscripts: letters, and kEllipsis for "...".
Result<std::string> parse_term(const NodeParser& p, const std::string& term) {
  std::string out;
  for (size_t i = 0; i < term.size();) {
    if (is_letter(term[i])) {
      out += term[i++];
    } else if (term.compare(i, 3, "...") == 0 && out.find(kEllipsis) == std::string::npos) {
      out += kEllipsis;
      i += 3;
    } else {
      return p.error("equation term \"" + term + "\": subscripts are letters a-z, A-Z and one \"...\"");
    }
  }
  return out;
}

// Sizes of one label as seen by several inputs agree, or are 1 (broadcast).
Status merge_size(const NodeParser& p, const std::string& label, int64_t size, int64_t* merged) {
  if (*merged == 1 || *merged == size) {
    *merged = size;
  } else if (size != 1) {
    return p.error("label " + label + " has sizes " + std::to_string(*merged) + " and " + std::to_string(size));
  }
  return Status();
}

// Per input, the element stride of every label (0 where the input lacks or broadcasts it).
std::vector<std::vector<int64_t>> label_strides(const EinsumAttrs& a, const std::vector<Shape>& shapes,
                                                const std::vector<Strides>& strides) {
  std::vector<std::vector<int64_t>> result;
  for (size_t k = 0; k < a.input_labels.size(); ++k) {
    std::vector<int64_t> s(a.label_sizes.size(), 0);
    for (size_t d = 0; d < a.input_labels[k].size(); ++d) {
      if (shapes[k][d] != 1) s[a.input_labels[k][d]] = strides[k][d];
    }
    result.push_back(std::move(s));
  }
  return result;
}

int64_t summed_count(const EinsumAttrs& a) {
  int64_t n = 1;
  for (int l : a.summed) n *= a.label_sizes[l];
  return n;
}

class EinsumKernel final : public TileKernel {
 public:
  EinsumKernel(const EinsumAttrs& a, const BindArgs& args) : attrs_(a), out_(args.output) {
    std::vector<Shape> shapes;
    std::vector<Strides> strides;
    for (const TensorBinding& in : args.inputs) {
      inputs_.push_back(in);
      shapes.push_back(in.shape);
      strides.push_back(in.strides);
    }
    strides_ = label_strides(a, shapes, strides);
  }

  void run(const Region& region, const ExecContext& ctx) const override {
    const size_t inputs = inputs_.size();
    std::vector<const float*> x(inputs);
    for (size_t k = 0; k < inputs; ++k) x[k] = input_data(inputs_[k], ctx);
    float* y = tensor_data(out_, ctx);
    std::vector<int64_t> index(attrs_.label_sizes.size(), 0);
    std::vector<int64_t> base(inputs, 0), scratch(inputs);
    int64_t y_offset = 0;
    for (int o = 0; o < region.rank; ++o) {
      const int l = attrs_.output_labels[o];
      index[l] = region.begin[o];
      y_offset += region.begin[o] * out_.strides[o];
      for (size_t k = 0; k < inputs; ++k) base[k] += index[l] * strides_[k][l];
    }
    while (true) {
      y[y_offset] = sum_at(x, base, index, scratch);
      // Next output element in row-major order within the region.
      int o = region.rank - 1;
      for (; o >= 0; --o) {
        const int l = attrs_.output_labels[o];
        const int64_t step = index[l] + 1 < region.end[o] ? 1 : region.begin[o] - index[l];
        index[l] += step;
        y_offset += step * out_.strides[o];
        for (size_t k = 0; k < inputs; ++k) base[k] += step * strides_[k][l];
        if (step == 1) break;
      }
      if (o < 0) return;
    }
  }
  std::string kernel_name() const override { return "f32_einsum_loops"; }

 private:
  // One output element: the summed labels' outer positions, then a strided inner loop.
  // `index` holds 0 for every summed label on entry and on return; `offset` is scratch.
  float sum_at(const std::vector<const float*>& x, const std::vector<int64_t>& base, std::vector<int64_t>& index,
               std::vector<int64_t>& offset) const {
    const size_t inputs = x.size();
    if (attrs_.summed.empty()) {
      float product = x[0][base[0]];
      for (size_t k = 1; k < inputs; ++k) product *= x[k][base[k]];
      return product;
    }
    const int inner = attrs_.summed.back();
    const int64_t n = attrs_.label_sizes[inner];
    const size_t outer_labels = attrs_.summed.size() - 1;
    std::copy(base.begin(), base.end(), offset.begin());
    float sum = 0.0f;
    while (true) {
      if (inputs == 1) {
        const float* a = x[0] + offset[0];
        const int64_t sa = strides_[0][inner];
        for (int64_t t = 0; t < n; ++t) sum += a[t * sa];
      } else if (inputs == 2) {
        const float* a = x[0] + offset[0];
        const float* b = x[1] + offset[1];
        const int64_t sa = strides_[0][inner], sb = strides_[1][inner];
        for (int64_t t = 0; t < n; ++t) sum += a[t * sa] * b[t * sb];
      } else {
        for (int64_t t = 0; t < n; ++t) {
          float product = x[0][offset[0] + t * strides_[0][inner]];
          for (size_t k = 1; k < inputs; ++k) product *= x[k][offset[k] + t * strides_[k][inner]];
          sum += product;
        }
      }
      // Next position of the outer summed labels; done when they have all wrapped around.
      bool advanced = false;
      for (size_t level = outer_labels; level-- > 0;) {
        const int l = attrs_.summed[level];
        for (size_t k = 0; k < inputs; ++k) offset[k] += strides_[k][l];
        advanced = ++index[l] < attrs_.label_sizes[l];
        if (advanced) break;
        for (size_t k = 0; k < inputs; ++k) offset[k] -= strides_[k][l] * attrs_.label_sizes[l];
        index[l] = 0;
      }
      if (!advanced) return sum;
    }
  }

  EinsumAttrs attrs_;
  std::vector<TensorBinding> inputs_;
  TensorBinding out_;
  std::vector<std::vector<int64_t>> strides_;  // per input, per label
};

}  // namespace

Result<ParsedOp> parse_einsum(NodeParser& p) {
  TESSERA_RETURN_IF_ERROR(p.expect_outputs(1));
  const size_t inputs = p.num_inputs();
  TESSERA_RETURN_IF_ERROR(p.expect_inputs(std::max<size_t>(inputs, 1), std::max<size_t>(inputs, 1)));
  for (size_t k = 0; k < inputs; ++k) TESSERA_RETURN_IF_ERROR(p.expect_float(k));
  if (!p.has_attribute("equation")) return p.error("attribute \"equation\" is required");
  TESSERA_ASSIGN_OR_RETURN(std::string equation, p.get_string("equation", ""));
  std::erase_if(equation, [](char c) { return c == ' ' || c == '\t' || c == '\n'; });
  const size_t arrow = equation.find("->");
  const std::string lhs = equation.substr(0, arrow);
  std::vector<std::string> terms;
  for (size_t begin = 0;;) {
    const size_t comma = lhs.find(',', begin);
    TESSERA_ASSIGN_OR_RETURN(std::string term, parse_term(p, lhs.substr(begin, comma - begin)));
    terms.push_back(std::move(term));
    if (comma == std::string::npos) break;
    begin = comma + 1;
  }
  if (terms.size() != inputs) {
    return p.error("equation \"" + equation + "\" has " + std::to_string(terms.size()) + " input terms for " +
                   std::to_string(inputs) + " inputs");
  }

  // The ellipsis dims: as many as the most any input covers, broadcast right-aligned.
  EinsumAttrs a;
  std::vector<int64_t> ellipsis_rank(inputs, 0);
  bool any_ellipsis = false;
  for (size_t k = 0; k < inputs; ++k) {
    const bool has = terms[k].find(kEllipsis) != std::string::npos;
    const int64_t letters = static_cast<int64_t>(terms[k].size()) - (has ? 1 : 0);
    const auto rank = static_cast<int64_t>(p.shape(k).size());
    if (has ? rank < letters : rank != letters) {
      return p.error("equation term " + std::to_string(k) + " has " + std::to_string(letters) +
                     " subscripts for input " + std::to_string(k) + " of rank " + std::to_string(rank));
    }
    ellipsis_rank[k] = rank - letters;
    any_ellipsis = any_ellipsis || has;
  }
  const int64_t ellipsis = *std::max_element(ellipsis_rank.begin(), ellipsis_rank.end());
  a.label_sizes.assign(ellipsis, 1);
  std::string letters;  // letter of label ellipsis + i
  std::vector<int> uses;
  for (size_t k = 0; k < inputs; ++k) {
    std::vector<int>& dims = a.input_labels.emplace_back();
    for (char c : terms[k]) {
      if (c == kEllipsis) {
        for (int64_t e = ellipsis - ellipsis_rank[k]; e < ellipsis; ++e) dims.push_back(static_cast<int>(e));
        continue;
      }
      if (std::count(terms[k].begin(), terms[k].end(), c) > 1) {
        return p.error("Einsum: repeated labels within one input are not supported (\"" + std::string(1, c) +
                       "\" in term " + std::to_string(k) + ")");
      }
      size_t at = letters.find(c);
      if (at == std::string::npos) {
        at = letters.size();
        letters += c;
        a.label_sizes.push_back(1);
        uses.push_back(0);
      }
      ++uses[at];
      dims.push_back(static_cast<int>(ellipsis + at));
    }
    for (size_t d = 0; d < dims.size(); ++d) {
      const int l = dims[d];
      const std::string name = l < ellipsis ? "... dim " + std::to_string(l) : std::string(1, letters[l - ellipsis]);
      TESSERA_RETURN_IF_ERROR(merge_size(p, name, p.shape(k)[d], &a.label_sizes[l]));
    }
  }

  // Output labels: as written after "->", else the ellipsis dims then the letters used once,
  // in alphabetical (ASCII) order, as numpy does.
  std::vector<bool> kept(a.label_sizes.size(), false);
  auto keep = [&](int l) {
    a.output_labels.push_back(l);
    kept[l] = true;
  };
  if (arrow != std::string::npos) {
    TESSERA_ASSIGN_OR_RETURN(std::string rhs, parse_term(p, equation.substr(arrow + 2)));
    if (any_ellipsis && ellipsis > 0 && rhs.find(kEllipsis) == std::string::npos) {
      return p.error("the inputs have \"...\" dims but the output subscripts have no \"...\"");
    }
    for (char c : rhs) {
      if (c == kEllipsis) {
        for (int e = 0; e < ellipsis; ++e) keep(e);
        continue;
      }
      const size_t at = letters.find(c);
      if (at == std::string::npos) return p.error("output label " + std::string(1, c) + " is in no input");
      if (std::count(rhs.begin(), rhs.end(), c) > 1) {
        return p.error("output label " + std::string(1, c) + " is repeated");
      }
      keep(static_cast<int>(ellipsis + at));
    }
  } else {
    for (int e = 0; e < ellipsis; ++e) keep(e);
    std::string once;
    for (size_t i = 0; i < letters.size(); ++i) {
      if (uses[i] == 1) once += letters[i];
    }
    std::sort(once.begin(), once.end());
    for (char c : once) keep(static_cast<int>(ellipsis + letters.find(c)));
  }
  for (size_t l = 0; l < kept.size(); ++l) {
    if (!kept[l]) a.summed.push_back(static_cast<int>(l));
  }
  Shape out;
  for (int l : a.output_labels) out.push_back(a.label_sizes[l]);
  if (out.size() > kMaxRank) return p.error("output rank exceeds 8");
  int64_t per_output = 0;
  if (!checked_mul(summed_count(a), static_cast<int64_t>(inputs), &per_output)) {
    return p.error("would need more than 2^40 operations");
  }
  TESSERA_RETURN_IF_ERROR(p.check_work(out, per_output));
  return ParsedOp{a, out};
}

OpCost cost(const EinsumAttrs& a, const OpShapes& s, const Region& out) {
  const auto n = static_cast<double>(out.element_count());
  double bytes = 4.0 * n;
  for (size_t k = 0; k < s.inputs.size(); ++k) {
    bytes += 4.0 * static_cast<double>(footprint(a, s, out, static_cast<int>(k))->element_count());
  }
  return {.flops = n * static_cast<double>(summed_count(a)) * static_cast<double>(s.inputs.size()),
          .bytes = bytes,
          .kind = WorkKind::kElementwise};
}

std::optional<Region> footprint(const EinsumAttrs& a, const OpShapes& s, const Region& out, int input) {
  const Shape& shape = s.inputs[input];
  Region r = Region::whole(shape);
  for (size_t d = 0; d < shape.size(); ++d) {
    const auto o = std::find(a.output_labels.begin(), a.output_labels.end(), a.input_labels[input][d]);
    if (o == a.output_labels.end() || shape[d] == 1) continue;  // summed, or broadcast
    r.begin[d] = out.begin[o - a.output_labels.begin()];
    r.end[d] = out.end[o - a.output_labels.begin()];
  }
  return r;
}

TilingHints tiling_hints(const EinsumAttrs&, const OpShapes& s, const TilingQuery& q) {
  return elementwise_tiling_hints(s.output, q.output_layout);
}

LayoutChoice choose_layout(const EinsumAttrs&, const OpShapes& s, const LayoutQuery&) {
  // Inputs are read through their strides, in whatever layout they have.
  return {std::vector<std::optional<Layout>>(s.inputs.size()), Layout::identity(static_cast<int>(s.output.size()))};
}

void reference(const EinsumAttrs& a, const OpShapes& s, std::span<const void* const> in_data, void* out_data) {
  const FloatInputs in(in_data);
  float* out = static_cast<float*>(out_data);
  // Nested loops over all labels: the output's (row-major), then the summed ones; in double.
  const size_t inputs = s.inputs.size();
  std::vector<Strides> row_major;
  for (const Shape& shape : s.inputs)
    row_major.push_back(logical_strides(shape, Layout::identity(static_cast<int>(shape.size()))));
  const std::vector<std::vector<int64_t>> strides = label_strides(a, s.inputs, row_major);
  std::vector<int> order = a.output_labels;
  order.insert(order.end(), a.summed.begin(), a.summed.end());
  std::vector<int64_t> index(a.label_sizes.size(), 0);
  const int64_t per_output = summed_count(a);
  const int64_t outputs = element_count(s.output);
  for (int64_t e = 0; e < outputs; ++e) {
    double sum = 0;
    for (int64_t t = 0; t < per_output; ++t) {
      double product = 1;
      for (size_t k = 0; k < inputs; ++k) {
        int64_t offset = 0;
        for (size_t l = 0; l < index.size(); ++l) offset += index[l] * strides[k][l];
        product *= in[k][offset];
      }
      sum += product;
      for (size_t i = order.size(); i-- > a.output_labels.size();) {  // next summed position
        if (++index[order[i]] < a.label_sizes[order[i]]) break;
        index[order[i]] = 0;
      }
    }
    out[e] = static_cast<float>(sum);
    for (size_t i = a.output_labels.size(); i-- > 0;) {  // next output element
      if (++index[order[i]] < a.label_sizes[order[i]]) break;
      index[order[i]] = 0;
    }
  }
}

Result<std::unique_ptr<TileKernel>> bind(const EinsumAttrs& a, const BindArgs& args) {
  return std::unique_ptr<TileKernel>(new EinsumKernel(a, args));
}

}  // namespace tessera::ops
