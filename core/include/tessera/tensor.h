// Tensors at the API boundary: element types and a dense row-major tensor that owns its bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

namespace tessera {

// Element types. float32 is the compute type of the heavy ops; the integer and bool types
// carry token ids, indices, masks and shapes. bool is one byte holding 0 or 1, as in ONNX.
enum class DType : uint8_t { kFloat32, kInt64, kInt32, kBool, kUInt8 };

const char* dtype_name(DType dtype);  // "float32", "int64", "int32", "bool", "uint8"
size_t dtype_size(DType dtype);
bool parse_dtype(const std::string& text, DType* dtype);

// The C++ type that holds one element of each dtype (bool as uint8_t, one byte).
template <class T>
constexpr bool is_element_type_v = std::is_same_v<T, float> || std::is_same_v<T, int64_t> ||
                                   std::is_same_v<T, int32_t> || std::is_same_v<T, uint8_t>;

// A dense tensor in row-major (ONNX) order. Float tensors are built from a std::vector<float>
// as before; other types with Tensor::of.
struct Tensor {
  std::string name;
  std::vector<int64_t> dims;
  DType dtype = DType::kFloat32;
  std::vector<std::byte> bytes;  // element_count() * dtype_size(dtype) bytes, little-endian

  Tensor() = default;
  Tensor(std::string name, std::vector<int64_t> dims, const std::vector<float>& values);
  // Copies element_count(dims) elements of `dtype` from `data`.
  static Tensor of(std::string name, std::vector<int64_t> dims, DType dtype, const void* data);
  // Shape and type only, for describing inputs and outputs.
  static Tensor spec(std::string name, std::vector<int64_t> dims, DType dtype);
  bool operator==(const Tensor&) const = default;

  int64_t element_count() const;
  // The elements as T; empty unless T holds this tensor's dtype (uint8_t for bool and uint8).
  template <class T>
  std::span<const T> values() const {
    static_assert(is_element_type_v<T>);
    if (!holds<T>()) return {};
    return {reinterpret_cast<const T*>(bytes.data()), bytes.size() / sizeof(T)};
  }
  template <class T>
  std::span<T> values() {
    static_assert(is_element_type_v<T>);
    if (!holds<T>()) return {};
    return {reinterpret_cast<T*>(bytes.data()), bytes.size() / sizeof(T)};
  }
  std::span<const float> floats() const { return values<float>(); }
  std::span<float> floats() { return values<float>(); }

 private:
  template <class T>
  bool holds() const {
    if constexpr (std::is_same_v<T, float>) return dtype == DType::kFloat32;
    if constexpr (std::is_same_v<T, int64_t>) return dtype == DType::kInt64;
    if constexpr (std::is_same_v<T, int32_t>) return dtype == DType::kInt32;
    if constexpr (std::is_same_v<T, uint8_t>) return dtype == DType::kBool || dtype == DType::kUInt8;
    return false;
  }
};

// One dimension of a model's input or output: a fixed size, or a symbol ("batch", "seq")
// bound per run by the inputs' dims.
struct Dim {
  int64_t size = 0;    // when fixed
  std::string symbol;  // when symbolic (then size is 0)

  bool is_symbol() const { return !symbol.empty(); }
  bool operator==(const Dim&) const = default;
};

// A model input or output as declared: name, element type, dims.
struct ValueSpec {
  std::string name;
  DType dtype = DType::kFloat32;
  std::vector<Dim> dims;

  bool is_static() const;
  std::vector<int64_t> static_dims() const;  // sizes; symbols read as 0
  std::string dims_string() const;           // "[batch, 128]"
};

}  // namespace tessera
