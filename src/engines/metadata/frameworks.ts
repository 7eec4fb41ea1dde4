/**
 * Frameworks and notable libraries, recognised from declared dependencies and from what the code
 * imports. Each entry names the dependency names (exact, or a prefix ending in "*") and the import
 * modules (exact or prefix) that reveal it.
 */

export type FrameworkCategory =
  | "web"
  | "frontend"
  | "testing"
  | "orm"
  | "data"
  | "cli"
  | "di"
  | "state"
  | "rpc"
  | "mobile"
  | "desktop"
  | "build"
  | "ml"
  | "async"
  | "logging";

export interface FrameworkRule {
  name: string;
  category: FrameworkCategory;
  deps: string[];
  imports: string[];
}

const f = (name: string, category: FrameworkCategory, deps: string[], imports: string[] = deps): FrameworkRule => ({ name, category, deps, imports });

export const FRAMEWORKS: FrameworkRule[] = [
  // JavaScript / TypeScript
  f("React", "frontend", ["react"]),
  f("Next.js", "web", ["next"], ["next", "next/*"]),
  f("Vue", "frontend", ["vue"]),
  f("Nuxt", "web", ["nuxt"]),
  f("Angular", "frontend", ["@angular/core"], ["@angular/*"]),
  f("Svelte", "frontend", ["svelte", "@sveltejs/kit"], ["svelte", "svelte/*", "@sveltejs/*"]),
  f("Solid", "frontend", ["solid-js"]),
  f("Express", "web", ["express"]),
  f("Fastify", "web", ["fastify"]),
  f("Hono", "web", ["hono"], ["hono", "hono/*"]),
  f("Koa", "web", ["koa"]),
  f("NestJS", "web", ["@nestjs/core"], ["@nestjs/*"]),
  f("Redux", "state", ["redux", "@reduxjs/toolkit"]),
  f("Zustand", "state", ["zustand"]),
  f("MobX", "state", ["mobx"]),
  f("RxJS", "async", ["rxjs"], ["rxjs", "rxjs/*"]),
  f("Jest", "testing", ["jest", "@jest/globals"]),
  f("Vitest", "testing", ["vitest"]),
  f("Mocha", "testing", ["mocha"]),
  f("Playwright", "testing", ["@playwright/test", "playwright"]),
  f("Prisma", "orm", ["@prisma/client", "prisma"]),
  f("TypeORM", "orm", ["typeorm"]),
  f("Electron", "desktop", ["electron"]),
  f("React Native", "mobile", ["react-native"]),
  f("Zod", "data", ["zod"]),
  f("MCP SDK", "rpc", ["@modelcontextprotocol/sdk"], ["@modelcontextprotocol/sdk/*"]),
  // Go
  f("Gin", "web", ["github.com/gin-gonic/gin"]),
  f("Echo", "web", ["github.com/labstack/echo/v4", "github.com/labstack/echo"], ["github.com/labstack/echo*"]),
  f("Fiber", "web", ["github.com/gofiber/fiber/v2"], ["github.com/gofiber/fiber*"]),
  f("chi", "web", ["github.com/go-chi/chi/v5", "github.com/go-chi/chi"], ["github.com/go-chi/chi*"]),
  f("gorilla/mux", "web", ["github.com/gorilla/mux"]),
  f(
    "gRPC",
    "rpc",
    ["google.golang.org/grpc", "grpcio", "@grpc/grpc-js", "io.grpc:*", "tonic"],
    ["google.golang.org/grpc*", "grpc", "@grpc/grpc-js", "io.grpc.*", "tonic"],
  ),
  f("Cobra", "cli", ["github.com/spf13/cobra"]),
  f("GORM", "orm", ["gorm.io/gorm"], ["gorm.io/*"]),
  f("testify", "testing", ["github.com/stretchr/testify"], ["github.com/stretchr/testify/*"]),
  f("zap", "logging", ["go.uber.org/zap"]),
  // Python
  f("Django", "web", ["django"], ["django", "django.*"]),
  f("Flask", "web", ["flask"], ["flask", "flask.*"]),
  f("FastAPI", "web", ["fastapi"], ["fastapi", "fastapi.*"]),
  f("pytest", "testing", ["pytest"], ["pytest", "_pytest.*"]),
  f("SQLAlchemy", "orm", ["sqlalchemy"], ["sqlalchemy", "sqlalchemy.*"]),
  f("Pydantic", "data", ["pydantic"], ["pydantic", "pydantic.*"]),
  f("Celery", "async", ["celery"], ["celery", "celery.*"]),
  f("NumPy", "data", ["numpy"], ["numpy", "numpy.*"]),
  f("pandas", "data", ["pandas"], ["pandas", "pandas.*"]),
  f("PyTorch", "ml", ["torch"], ["torch", "torch.*"]),
  f("Click", "cli", ["click"], ["click"]),
  // Rust
  f("Tokio", "async", ["tokio"], ["tokio", "tokio::*"]),
  f("Axum", "web", ["axum"], ["axum", "axum::*"]),
  f("Actix Web", "web", ["actix-web"], ["actix_web", "actix_web::*"]),
  f("Rocket", "web", ["rocket"], ["rocket", "rocket::*"]),
  f("Serde", "data", ["serde"], ["serde", "serde::*"]),
  f("Diesel", "orm", ["diesel"], ["diesel", "diesel::*"]),
  f("clap", "cli", ["clap"], ["clap", "clap::*"]),
  // JVM
  f("Spring Boot", "web", ["org.springframework.boot:*"], ["org.springframework.*"]),
  f("Spring", "di", ["org.springframework:*"], ["org.springframework.*"]),
  f("JUnit", "testing", ["junit:junit", "org.junit.jupiter:*", "org.junit:*"], ["org.junit.*", "junit.*"]),
  f("Mockito", "testing", ["org.mockito:*"], ["org.mockito.*"]),
  f("Hibernate", "orm", ["org.hibernate:*", "org.hibernate.orm:*"], ["org.hibernate.*", "jakarta.persistence.*", "javax.persistence.*"]),
  f("Ktor", "web", ["io.ktor:*"], ["io.ktor.*"]),
  f("Kotlin Coroutines", "async", ["org.jetbrains.kotlinx:kotlinx-coroutines-core", "org.jetbrains.kotlinx:kotlinx-coroutines-*"], ["kotlinx.coroutines.*"]),
  f("Android", "mobile", ["androidx.*"], ["android.*", "androidx.*"]),
  f("Dagger/Hilt", "di", ["com.google.dagger:*"], ["dagger.*"]),
  // Ruby
  f("Rails", "web", ["rails"], ["rails", "active_record", "action_controller"]),
  f("Sinatra", "web", ["sinatra"]),
  f("RSpec", "testing", ["rspec", "rspec-rails"], ["rspec"]),
  f("Minitest", "testing", ["minitest"]),
  // PHP
  f("Laravel", "web", ["laravel/framework"], ["Illuminate\\*"]),
  f("Symfony", "web", ["symfony/framework-bundle", "symfony/*"], ["Symfony\\*"]),
  f("PHPUnit", "testing", ["phpunit/phpunit"], ["PHPUnit\\*"]),
  f("Doctrine", "orm", ["doctrine/orm"], ["Doctrine\\*"]),
  // .NET
  f("ASP.NET Core", "web", ["Microsoft.AspNetCore.*"], ["Microsoft.AspNetCore*"]),
  f("Entity Framework Core", "orm", ["Microsoft.EntityFrameworkCore*"], ["Microsoft.EntityFrameworkCore*"]),
  f("xUnit", "testing", ["xunit", "xunit.*"], ["Xunit*"]),
  f("NUnit", "testing", ["NUnit", "NUnit.*"], ["NUnit*"]),
  // C / C++
  f("GoogleTest", "testing", [], ["gtest/gtest.h", "gmock/gmock.h"]),
  f("Boost", "data", [], ["boost/*"]),
  f("Qt", "desktop", [], ["QtCore", "QtWidgets", "QApplication", "QObject", "QtCore/*", "QtWidgets/*"]),
];

/** `a*` matches by prefix, `a` exactly; a trailing `.*`, `/*`, `::*` or `\*` also matches the bare name. */
export function matches(pattern: string, value: string): boolean {
  if (!pattern.endsWith("*")) return pattern === value;
  const stem = pattern.slice(0, -1);
  const bare = stem.replace(/(\.|\/|::|\\)$/, "");
  return value.startsWith(stem) || (bare !== stem && value === bare);
}
