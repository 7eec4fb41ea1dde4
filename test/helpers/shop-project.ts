/**
 * A small shop written by us for search_codebase and its preflight: Go billing, orders, shipping and
 * payments packages and a Python catalogue, committed to git over time (so pattern trends have a
 * history), with team memories of known ages. What each area holds is chosen so that the evidence for an
 * edit is complete in some places and missing in others:
 *   billing.Total       one caller (orders), a test, a header comment
 *   shipping.Rate       five callers in warehouse/ files
 *   payments/           error wrapping split between pkg/errors and fmt.Errorf %w (a conflict), a failure memory
 *   catalog (Python)    a decision memory 400 days old (stale)
 *   basket (Python)     Basket.add_line called only through an untyped parameter (two classes define add_line, so the call binds to neither)
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { commitAt, tmpProject, type TmpProject } from "./tmp-project.ts";

const DAY = 86_400_000;

export function shopProject(): TmpProject {
  const p = tmpProject();
  Bun.spawnSync(["git", "-C", p.root, "init", "-q"]);
  p.write("go.mod", "module example.com/shop\n\ngo 1.21\n\nrequire github.com/pkg/errors v0.9.1\n");
  p.write(
    "billing/invoice.go",
    `// Package billing computes invoice totals for the shop.
package billing

import "fmt"

// Item is one line of an invoice.
type Item struct {
	Name  string
	Cents int
	Qty   int
}

var ErrNegative = fmt.Errorf("negative quantity")

// Total sums the line amounts of an invoice.
func Total(items []Item) (int, error) {
	sum := 0
	for _, it := range items {
		if it.Qty < 0 {
			return 0, fmt.Errorf("invoice line %s: %w", it.Name, ErrNegative)
		}
		sum += it.Cents * it.Qty
	}
	return sum, nil
}
`,
  );
  p.write(
    "billing/invoice_test.go",
    `package billing

import "testing"

func TestTotal(t *testing.T) {
	got, err := Total([]Item{{Name: "a", Cents: 250, Qty: 2}})
	if err != nil || got != 500 {
		t.Fatalf("Total = %d, %v", got, err)
	}
}
`,
  );
  p.write(
    "orders/checkout.go",
    `// Package orders turns carts into paid orders.
package orders

import (
	"fmt"

	"example.com/shop/billing"
)

// Checkout totals the cart's invoice and returns the amount to charge.
func Checkout(cart []billing.Item) (int, error) {
	total, err := billing.Total(cart)
	if err != nil {
		return 0, fmt.Errorf("checkout: %w", err)
	}
	return total, nil
}
`,
  );
  p.write(
    "api/handler.go",
    `// Package api serves the shop over HTTP.
package api

import (
	"net/http"

	"example.com/shop/orders"
)

// HandleCheckout answers POST /checkout.
func HandleCheckout(w http.ResponseWriter, r *http.Request) {
	amount, err := orders.Checkout(nil)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	_ = amount
}
`,
  );
  p.write(
    "shipping/rates.go",
    "// Package shipping prices parcels.\npackage shipping\n\n// Rate is the shipping price in cents for a parcel weight in grams.\nfunc Rate(grams int) int {\n\tif grams <= 0 {\n\t\treturn 0\n\t}\n\treturn 300 + grams/10\n}\n",
  );
  for (const name of ["inbound", "outbound", "returns", "samples", "pallets"]) {
    const fn = name[0]!.toUpperCase() + name.slice(1);
    p.write(
      `warehouse/${name}.go`,
      `package warehouse\n\nimport "example.com/shop/shipping"\n\n// ${fn}Cost prices the ${name} parcels of a day.\nfunc ${fn}Cost(weights []int) int {\n\tc := 0\n\tfor _, w := range weights {\n\t\tc += shipping.Rate(w)\n\t}\n\treturn c\n}\n`,
    );
  }
  commitAt(p.root, "billing, orders, shipping", 200);

  p.write(
    "payments/charge.go",
    `// Package payments charges cards and refunds payments.
package payments

import "github.com/pkg/errors"

// Charge takes a card payment.
func Charge(card string, cents int) error {
	if err := gateway(card, cents); err != nil {
		return errors.Wrap(err, "charge card payment")
	}
	return nil
}

func gateway(card string, cents int) error { return nil }
`,
  );
  p.write(
    "payments/refund.go",
    `package payments

import "fmt"

// Refund gives a card payment back.
func Refund(card string, cents int) error {
	if err := gateway(card, -cents); err != nil {
		return fmt.Errorf("refund card payment: %w", err)
	}
	return nil
}
`,
  );
  p.write(
    "catalog/search.py",
    '"""Product search over the catalog index."""\n\nfrom catalog.index import lookup\n\n\ndef find_products(text):\n    """Products whose name or description matches the text."""\n    return [p for p in lookup(text) if p.visible]\n',
  );
  p.write(
    "catalog/index.py",
    '"""The in-memory catalog index."""\n\nPRODUCTS = []\n\n\ndef lookup(text):\n    return [p for p in PRODUCTS if text in p.name]\n',
  );
  p.write(
    "catalog/money.py",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a fixture file's text, with its own template syntax
    '"""Money formatting for the catalogue pages."""\n\n\ndef format_price(cents):\n    """Formats a price in cents as a currency string."""\n    return f"${cents // 100}.{cents % 100:02d}"\n',
  );
  p.write(
    "catalog/view.py",
    '"""Catalogue page rendering."""\n\nfrom catalog.money import format_price\n\n\ndef price_label(product):\n    return "Price: " + format_price(product.cents)\n',
  );
  // a method called through an untyped parameter: resolution cannot bind the call
  p.write(
    "basket/cart.py",
    '"""The shopping basket."""\n\n\nclass Basket:\n    def __init__(self):\n        self.lines = []\n\n    def add_line(self, sku, qty):\n        """Adds a line for a SKU to the basket."""\n        self.lines.append((sku, qty))\n',
  );
  p.write(
    "wishlist/wishes.py",
    '"""Saved-for-later items."""\n\n\nclass Wishlist:\n    def __init__(self):\n        self.items = []\n\n    def add_line(self, product_id):\n        self.items.append(product_id)\n',
  );
  p.write("basket/page.py", '"""Basket page handlers."""\n\n\ndef on_add(basket, form):\n    basket.add_line(form["sku"], int(form["qty"]))\n');
  commitAt(p.root, "payments and catalog", 10);

  const now = Date.now();
  const memories = [
    {
      id: "m-stale",
      type: "decision",
      category: "catalog",
      memory: "Product search must go through the catalog index, never raw SQL",
      reason: "search ranking lives in the index",
      created_at: new Date(now - 400 * DAY).toISOString(),
      source: "user",
    },
    {
      id: "m-fail",
      type: "failure",
      category: "payments",
      memory: "A retried refund once paid a card payment back twice",
      reason: "refunds must be idempotent",
      created_at: new Date(now - 10 * DAY).toISOString(),
      source: "user",
    },
    {
      id: "m-conv",
      type: "convention",
      category: "billing",
      memory: "Invoice amounts are integer cents, never floats",
      reason: "rounding",
      created_at: new Date(now - 300 * DAY).toISOString(),
      source: "user",
    },
  ];
  mkdirSync(join(p.root, ".cortex"), { recursive: true });
  writeFileSync(join(p.root, ".cortex", "memory.json"), JSON.stringify({ version: 1, memories }, null, 2) + "\n");
  return p;
}
