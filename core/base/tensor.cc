// The public tensor types: element type names and sizes, and Tensor's constructors.
#include <cstring>

#include "tessera/tensor.h"

namespace tessera {

namespace {

constexpr DType kDTypes[] = {DType::kFloat32, DType::kInt64, DType::kInt32, DType::kBool, DType::kUInt8};

int64_t product(const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return n;
}

}  // namespace

const char* dtype_name(DType dtype) {
  switch (dtype) {
    case DType::kFloat32: return "float32";
    case DType::kInt64: return "int64";
    case DType::kInt32: return "int32";
    case DType::kBool: return "bool";
    case DType::kUInt8: return "uint8";
  }
  return "?";
}

size_t dtype_size(DType dtype) {
  switch (dtype) {
    case DType::kInt64: return 8;
    case DType::kFloat32:
    case DType::kInt32: return 4;
    case DType::kBool:
    case DType::kUInt8: return 1;
  }
  return 1;
}

bool parse_dtype(const std::string& text, DType* dtype) {
  for (DType d : kDTypes) {
    if (text == dtype_name(d)) {
      *dtype = d;
      return true;
    }
  }
  return false;
}

Tensor::Tensor(std::string name_, std::vector<int64_t> dims_, const std::vector<float>& values)
    : name(std::move(name_)), dims(std::move(dims_)), bytes(values.size() * sizeof(float)) {
  if (!values.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
}

Tensor Tensor::of(std::string name, std::vector<int64_t> dims, DType dtype, const void* data) {
  Tensor t = spec(std::move(name), std::move(dims), dtype);
  t.bytes.resize(static_cast<size_t>(t.element_count()) * dtype_size(dtype));
  if (!t.bytes.empty()) std::memcpy(t.bytes.data(), data, t.bytes.size());
  return t;
}

Tensor Tensor::spec(std::string name, std::vector<int64_t> dims, DType dtype) {
  Tensor t;
  t.name = std::move(name);
  t.dims = std::move(dims);
  t.dtype = dtype;
  return t;
}

int64_t Tensor::element_count() const { return product(dims); }

bool ValueSpec::is_static() const {
  for (const Dim& d : dims) {
    if (d.is_symbol()) return false;
  }
  return true;
}

std::vector<int64_t> ValueSpec::static_dims() const {
  std::vector<int64_t> sizes;
  for (const Dim& d : dims) sizes.push_back(d.size);
  return sizes;
}

std::string ValueSpec::dims_string() const {
  std::string text = "[";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i) text += ", ";
    text += dims[i].is_symbol() ? dims[i].symbol : std::to_string(dims[i].size);
  }
  return text + "]";
}

}  // namespace tessera
