#!/usr/bin/env python3
"""Writes the seed corpus of fuzz-elf (corpus/elf/): minimal ELF64 shared-library images, a
few hundred bytes each, shaped like a plugin (a .dynsym whose symbols lie in the section
"plinth", as plinth_backend__opencl__abi_1_0 does), and near misses of each check the reader
makes. Real shared libraries are too large to be good seeds.

    python3 tests/fuzz/make_elf_seeds.py [output directory]
"""

import os
import struct
import sys

EHDR = struct.Struct("<16sHHIQQQIHHHHHH")  # Elf64_Ehdr, 64 bytes
SHDR = struct.Struct("<IIQQQQIIQQ")  # Elf64_Shdr, 64 bytes
SYM = struct.Struct("<IBBHQQ")  # Elf64_Sym, 24 bytes

SHT_PROGBITS, SHT_STRTAB, SHT_DYNSYM = 1, 3, 11
ET_EXEC, ET_DYN = 2, 3
STB_GLOBAL_FUNC = (1 << 4) | 2


def strtab(names):
    """A string table holding `names`, and the offset of each."""
    data = b"\0"
    offsets = {}
    for name in names:
        offsets[name] = len(data)
        data += name.encode() + b"\0"
    return data, offsets


def image(
    symbols=("plinth_backend__opencl__abi_1_0", "plinth_backend__opencl__factory"),
    with_plinth=True,
    with_dynsym=True,
    elf_class=2,
    e_type=ET_DYN,
    patch_ehdr=None,
    patch_dynsym=None,
    patch_sym=None,
    dynstr_unterminated=False,
):
    """An ELF64 image: a null section, .text, plinth, .dynsym, .dynstr, .shstrtab."""
    section_names = [".text", "plinth", ".dynsym", ".dynstr", ".shstrtab"]
    shstr, shoff_names = strtab(section_names)
    dynstr, dyn_names = strtab(symbols)
    if dynstr_unterminated:
        dynstr = dynstr[:-1]
    text = b"\xc3" * 16  # ret
    plinth = b"\0" * 8
    plinth_index = 2 if with_plinth else 0
    syms = SYM.pack(0, 0, 0, 0, 0, 0)  # the null symbol
    for i, name in enumerate(symbols):
        fields = [dyn_names[name], STB_GLOBAL_FUNC, 0, plinth_index if i % 2 == 0 else 1, 0, 0]
        if patch_sym:
            fields = patch_sym(i, fields)
        syms += SYM.pack(*fields)

    body = b""
    offset = EHDR.size

    def place(data):
        nonlocal body
        at = offset + len(body)
        body += data
        while len(body) % 8:
            body += b"\0"
        return at

    text_at, plinth_at, syms_at = place(text), place(plinth), place(syms)
    dynstr_at, shstr_at = place(dynstr), place(shstr)
    shoff = offset + len(body)

    sections = [SHDR.pack(0, 0, 0, 0, 0, 0, 0, 0, 0, 0)]
    sections.append(SHDR.pack(shoff_names[".text"], SHT_PROGBITS, 6, 0, text_at, len(text), 0, 0, 16, 0))
    sections.append(SHDR.pack(shoff_names["plinth"] if with_plinth else shoff_names[".text"],
                              SHT_PROGBITS, 2, 0, plinth_at, len(plinth), 0, 0, 8, 0))
    dynsym = [shoff_names[".dynsym"], SHT_DYNSYM if with_dynsym else SHT_PROGBITS, 2, 0, syms_at,
              len(syms), 4, 1, 8, SYM.size]
    if patch_dynsym:
        dynsym = patch_dynsym(dynsym)
    sections.append(SHDR.pack(*dynsym))
    sections.append(SHDR.pack(shoff_names[".dynstr"], SHT_STRTAB, 2, 0, dynstr_at, len(dynstr), 0, 0, 1, 0))
    sections.append(SHDR.pack(shoff_names[".shstrtab"], SHT_STRTAB, 0, 0, shstr_at, len(shstr), 0, 0, 1, 0))

    ident = b"\x7fELF" + bytes([elf_class, 1, 1, 0]) + b"\0" * 8
    ehdr = [ident, e_type, 62, 1, 0, 0, shoff, 0, EHDR.size, 56, 0, SHDR.size, len(sections), 5]
    if patch_ehdr:
        ehdr = patch_ehdr(ehdr)
    return EHDR.pack(*ehdr) + body + b"".join(sections)


def set_at(index, value):
    def patch(fields):
        fields = list(fields)
        fields[index] = value
        return fields
    return patch


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "corpus", "elf")
    os.makedirs(out, exist_ok=True)
    valid = image()
    seeds = {
        "plugin": valid,
        "no-plinth-section": image(with_plinth=False),
        "many-symbols": image(symbols=[f"plinth_backend__b{i}__abi_1_{i}" for i in range(24)]),
        "no-dynsym": image(with_dynsym=False),
        # .dynsym claims far more entries than the file holds.
        "regress-dynsym-size-huge": image(patch_dynsym=set_at(5, 24 * (1 << 58))),
        "dynsym-size-not-multiple": image(patch_dynsym=set_at(5, 25)),
        "dynsym-offset-beyond-end": image(patch_dynsym=set_at(4, 1 << 40)),
        "dynsym-bad-entsize": image(patch_dynsym=set_at(9, 16)),
        "dynsym-bad-link": image(patch_dynsym=set_at(6, 99)),
        "section-table-beyond-end": image(patch_ehdr=set_at(6, 1 << 62)),
        "section-count-huge": image(patch_ehdr=set_at(12, 0xFFFF)),
        "shstrndx-out-of-range": image(patch_ehdr=set_at(13, 6)),
        "symbol-name-beyond-table": image(patch_sym=lambda i, f: [0xFFFFFFF0] + f[1:]),
        "dynstr-unterminated": image(dynstr_unterminated=True),
        "executable-not-library": image(e_type=ET_EXEC),
        "elf32": image(elf_class=1),
        "truncated-header": valid[:40],
        "truncated-sections": valid[:-30],
        "not-elf": b"#!/bin/sh\necho not a library\n",
    }
    for name, data in seeds.items():
        assert len(data) < 8192, name
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
