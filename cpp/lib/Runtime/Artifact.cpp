//===- Artifact.cpp - the mo executable format (.mef) ---------------------===//

#include "Artifact.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/xxhash.h"

using namespace mlir::mo;
using llvm::StringRef;

namespace {

constexpr char kMagic[8] = {'\x89', 'M', 'O', 'M', 'E', 'F', '\r', '\n'};
constexpr size_t kHeader = 24, kEntry = 24, kChecksum = 8, kAlign = 64;
constexpr size_t kMaxSections = 1024;

template <typename T> void put(std::string &out, size_t at, T value) {
  llvm::support::endian::write<T, llvm::endianness::little>(out.data() + at, value);
}

template <typename T> T get(StringRef data, size_t at) {
  return llvm::support::endian::read<T, llvm::endianness::little>(data.data() + at);
}

uint64_t checksum(StringRef bytes) {
  return llvm::xxh3_64bits(llvm::ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size()));
}

llvm::Error invalid(const llvm::Twine &why) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), why);
}

} // namespace

std::string artifact::write(const Contents &contents) {
  llvm::SmallVector<std::pair<Section, StringRef>> sections = {
      {Section::Manifest, contents.manifest}, {Section::Bytecode, contents.bytecode}};
  for (StringRef object : contents.objects)
    sections.push_back({Section::Object, object});
  size_t count = sections.size();
  llvm::SmallVector<size_t> offsets;
  size_t end = llvm::alignTo(kHeader + count * kEntry, kAlign);
  for (const auto &section : sections) {
    offsets.push_back(end);
    end = llvm::alignTo(end + section.second.size(), kAlign);
  }
  std::string out(end + kChecksum, '\0');
  std::copy(std::begin(kMagic), std::end(kMagic), out.begin());
  put<uint32_t>(out, 8, kVersion);
  put<uint32_t>(out, 12, count);
  put<uint64_t>(out, 16, out.size());
  for (auto [i, section] : llvm::enumerate(sections)) {
    size_t entry = kHeader + i * kEntry;
    put<uint32_t>(out, entry, static_cast<uint32_t>(section.first));
    put<uint64_t>(out, entry + 8, offsets[i]);
    put<uint64_t>(out, entry + 16, section.second.size());
    llvm::copy(section.second, out.begin() + offsets[i]);
  }
  put<uint64_t>(out, end, checksum(StringRef(out).take_front(end)));
  return out;
}

llvm::Expected<artifact::Contents> artifact::read(StringRef data) {
  if (data.size() < sizeof(kMagic) || !data.starts_with(StringRef(kMagic, sizeof(kMagic))))
    return invalid("not a mo artifact (.mef): its first bytes are not the MEF magic");
  if (data.size() < kHeader + kChecksum)
    return invalid("truncated: " + llvm::Twine(data.size()) + " bytes, fewer than a header");
  uint32_t version = get<uint32_t>(data, 8);
  if (version > kVersion)
    return invalid("written by a newer mo (format version " + llvm::Twine(version) +
                   "; this runtime reads version " + llvm::Twine(kVersion) + ")");
  uint64_t size = get<uint64_t>(data, 16);
  if (size > data.size())
    return invalid("truncated: the header says " + llvm::Twine(size) + " bytes, the data has " +
                   llvm::Twine(data.size()));
  if (size < data.size())
    return invalid("the header says " + llvm::Twine(size) + " bytes, the data has " +
                   llvm::Twine(data.size()) + " (trailing bytes)");
  if (get<uint64_t>(data, size - kChecksum) != checksum(data.drop_back(kChecksum)))
    return invalid("corrupt: the checksum does not match the contents");
  // The bytes are as written; what follows guards against a writer's bugs.
  if (version != kVersion)
    return invalid("unknown format version " + llvm::Twine(version));
  uint32_t count = get<uint32_t>(data, 12);
  if (count < 3 || count > kMaxSections || kHeader + count * kEntry > size - kChecksum)
    return invalid("malformed: " + llvm::Twine(count) +
                   " sections, expected a manifest, a bytecode and objects");
  Contents contents;
  for (size_t i = 0; i < count; ++i) {
    size_t entry = kHeader + i * kEntry;
    uint32_t kind = get<uint32_t>(data, entry);
    uint64_t offset = get<uint64_t>(data, entry + 8), length = get<uint64_t>(data, entry + 16);
    uint32_t expected = static_cast<uint32_t>(i == 0   ? Section::Manifest
                                              : i == 1 ? Section::Bytecode
                                                       : Section::Object);
    if (kind != expected)
      return invalid("malformed: section " + llvm::Twine(i) + " has kind " + llvm::Twine(kind));
    if (offset > size - kChecksum || length > size - kChecksum - offset)
      return invalid("malformed: section " + llvm::Twine(i) + " lies outside the file");
    StringRef bytes = data.substr(offset, length);
    if (i == 0)
      contents.manifest = bytes;
    else if (i == 1)
      contents.bytecode = bytes;
    else
      contents.objects.push_back(bytes);
  }
  return contents;
}
