# Installs the cortex executable for Windows from a cortex release: downloads the archive and the
# SHA256SUMS file, refuses on a checksum mismatch (nothing is installed then), installs into a user folder
# and says how to put that folder on PATH.
#
#   irm <release>/install.ps1 | iex
#
# Settings (environment):
#   CORTEX_INSTALL_BASE_URL   where the release's files are (default: the release this script came with)
#   CORTEX_INSTALL_DIR        where to install (default: %LOCALAPPDATA%\cortex\bin)
#   CORTEX_INSTALL_PLATFORM   the platform to install, instead of this machine's (windows-x64)
#
# scripts/release.ts writes this file into each release with its version and download address filled in.
$ErrorActionPreference = 'Stop'
# Windows PowerShell 5.1 redraws a progress bar per chunk, which slows a 90 MB download many times over
$ProgressPreference = 'SilentlyContinue'
Set-StrictMode -Version 3.0

$Version = '__CORTEX_VERSION__'
$DefaultBaseUrl = '__CORTEX_BASE_URL__'
$Platforms = '__CORTEX_PLATFORMS__' -split ' '

# throw, not exit: under `irm | iex` exit would close the user's PowerShell window
function Fail([string]$Message) {
  throw "cortex install: $Message"
}

function Get-Platform {
  # the OS's architecture, also from a 32-bit PowerShell on 64-bit Windows (PROCESSOR_ARCHITEW6432)
  $arch = if ($env:PROCESSOR_ARCHITEW6432) { $env:PROCESSOR_ARCHITEW6432 } else { $env:PROCESSOR_ARCHITECTURE }
  switch ($arch) {
    'AMD64' { return 'windows-x64' }
    'ARM64' { return 'windows-arm64' }
    default { return "windows-$("$arch".ToLower())" }
  }
}

$platform = if ($env:CORTEX_INSTALL_PLATFORM) { $env:CORTEX_INSTALL_PLATFORM } else { Get-Platform }
if ($Platforms -notcontains $platform) {
  Fail "no cortex executable for this platform ($platform); releases have: $($Platforms -join ' ')"
}

$baseUrl = if ($env:CORTEX_INSTALL_BASE_URL) { $env:CORTEX_INSTALL_BASE_URL } else { $DefaultBaseUrl }
if (-not $baseUrl) { Fail 'no download address: set CORTEX_INSTALL_BASE_URL to the folder holding the release files' }
$baseUrl = $baseUrl.TrimEnd('/')
$installDir = if ($env:CORTEX_INSTALL_DIR) { $env:CORTEX_INSTALL_DIR } else { Join-Path $env:LOCALAPPDATA 'cortex\bin' }
$archive = "cortex-$Version-$platform.zip"

$tmp = Join-Path ([System.IO.Path]::GetTempPath()) ("cortex-install-" + [System.Guid]::NewGuid().ToString('N'))
New-Item -ItemType Directory -Path $tmp | Out-Null
try {
  Write-Host "cortex install: downloading cortex $Version for $platform from $baseUrl"
  # TLS 1.2 for Windows PowerShell 5.1, whose default may be older
  [Net.ServicePointManager]::SecurityProtocol = [Net.ServicePointManager]::SecurityProtocol -bor [Net.SecurityProtocolType]::Tls12
  try {
    Invoke-WebRequest -UseBasicParsing -Uri "$baseUrl/SHA256SUMS" -OutFile (Join-Path $tmp 'SHA256SUMS')
    Invoke-WebRequest -UseBasicParsing -Uri "$baseUrl/$archive" -OutFile (Join-Path $tmp $archive)
  } catch {
    Fail "download failed: $($_.Exception.Message)"
  }

  $expected = $null
  foreach ($line in Get-Content (Join-Path $tmp 'SHA256SUMS')) {
    $parts = $line -split '\s+', 2
    if ($parts.Count -eq 2 -and ($parts[1] -eq $archive -or $parts[1] -eq "*$archive")) { $expected = $parts[0].ToLower(); break }
  }
  if (-not $expected) { Fail "SHA256SUMS lists no $archive; nothing installed" }
  $actual = (Get-FileHash -Algorithm SHA256 -Path (Join-Path $tmp $archive)).Hash.ToLower()
  if ($actual -ne $expected) {
    Fail "checksum mismatch for $archive (expected $expected, got $actual): the download is damaged or altered; nothing installed"
  }

  $unpacked = Join-Path $tmp 'unpacked'
  try {
    Expand-Archive -Path (Join-Path $tmp $archive) -DestinationPath $unpacked
  } catch {
    Fail "could not unpack ${archive}; nothing installed"
  }
  $exe = Join-Path $unpacked 'cortex.exe'
  if (-not (Test-Path $exe -PathType Leaf)) { Fail "$archive holds no cortex.exe; nothing installed" }

  New-Item -ItemType Directory -Force -Path $installDir | Out-Null
  $target = Join-Path $installDir 'cortex.exe'
  $part = Join-Path $installDir ".cortex.$PID.part"
  Copy-Item -Path $exe -Destination $part -Force
  Move-Item -Path $part -Destination $target -Force

  $installed = & $target --version 2>$null
  Write-Host "cortex install: installed $target ($installed)"

  $userPath = [Environment]::GetEnvironmentVariable('Path', 'User')
  if (-not (($userPath -split ';') -contains $installDir)) {
    Write-Host "cortex install: $installDir is not on your PATH. Add it with:"
    Write-Host "  [Environment]::SetEnvironmentVariable('Path', [Environment]::GetEnvironmentVariable('Path', 'User') + ';$installDir', 'User')"
    Write-Host '  then open a new terminal.'
  }
} finally {
  Remove-Item -Recurse -Force -Path $tmp -ErrorAction SilentlyContinue
}
